import type { FastifyReply, FastifyRequest } from 'fastify';

// Rules on raw input that hold for every route, whatever its schema, in one place.

export const INPUT_MESSAGES = {
  characters: 'Invalid characters',
  nesting: 'Nested too deeply',
  // the database refused a value: said apart from every schema's message, so the fuzz test sees it
  unstorable: 'A value of this request cannot be stored',
} as const;

// NUL and lone UTF-16 surrogates: PostgreSQL stores neither in text nor in jsonb (it refuses \u0000
// and unpaired surrogate escapes), and they are never meaningful input. With the u flag a surrogate
// pair is one code point, so the class matches lone surrogates only.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character refused here
const INVALID_CHARACTERS = /[\u0000\ud800-\udfff]/u;

/** Deeper JSON than any screen sends; far deeper would overflow the stack of whoever walks it. */
const MAX_DEPTH = 64;

export const hasInvalidCharacters = (text: string) => INVALID_CHARACTERS.test(text);

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  // Object.prototype (JSON bodies), null, or a null-based one (the query-string parser's objects)
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
};

/**
 * The first problem in a parsed body, query or params: `[field path, message]`, or null. Walks
 * plain objects and arrays only (never buffers or streams), without recursion.
 */
export function invalidInput(value: unknown, root: string): [string, string] | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof current === 'string') {
      if (hasInvalidCharacters(current)) return [path, INPUT_MESSAGES.characters];
      continue;
    }
    const isArray = Array.isArray(current);
    if (!isArray && !isPlainObject(current)) continue;
    if (depth >= MAX_DEPTH) return [path, INPUT_MESSAGES.nesting];
    const prefix = path === root && root === 'body' ? '' : `${path}.`;
    if (isArray) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], path: `${prefix}${i}`, depth: depth + 1 });
      }
      continue;
    }
    for (const [key, child] of Object.entries(current as Record<string, unknown>)) {
      if (hasInvalidCharacters(key)) return [path, INPUT_MESSAGES.characters];
      stack.push({ value: child, path: `${prefix}${key}`, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * preValidation hook: a request whose params, query string or JSON body holds a NUL, a lone
 * surrogate or absurd nesting answers 400 with the field, before any schema or handler sees it.
 */
export async function rejectInvalidInput(request: FastifyRequest, reply: FastifyReply) {
  const problem =
    invalidInput(request.params, 'params') ??
    invalidInput(request.query, 'query') ??
    invalidInput(request.body, 'body');
  if (!problem) return;
  const [path, message] = problem;
  // Params and query fields are named as the error handler names them: by their own name.
  const field = path.replace(/^(params|query)\./, '');
  return reply.code(400).send({ errors: { [field]: message } });
}

/**
 * A database error caused by the request's values rather than by the server: PostgreSQL's data
 * exceptions (class 22: out of range, invalid text, untranslatable characters...) and program
 * limits (54: a value too large for an index, too deep jsonb). Answers 400 with a generic field
 * message, never the database's own text. Anything else is null (a real server error).
 */
export function clientErrorFromDatabase(error: unknown): { errors: Record<string, string> } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^(22|54)[0-9A-Z]{3}$/.test(code)) return null;
  return { errors: { body: INPUT_MESSAGES.unstorable } };
}
