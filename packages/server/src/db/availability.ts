// Which errors mean "the database cannot be reached right now" rather than "this request is wrong":
// those answer 503 and the request may be retried; the pool replaces the broken connection by itself.

// Node's socket errors on the way to PostgreSQL.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// PostgreSQL's own: class 08 (connection exception), shutdowns, start-up and too many connections.
const SQLSTATE_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;

// pg's messages for a connection that ended or never opened (these errors carry no code).
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth += 1) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
    if (typeof message === 'string' && PG_MESSAGES.some((text) => message.startsWith(text))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
