import pg from 'pg';

/** The SQL statements `work` sends through pg (every client of the process), with their values. */
export async function statementsSentBy(
  work: () => Promise<unknown>,
): Promise<{ text: string; values: unknown[] }[]> {
  const sent: { text: string; values: unknown[] }[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    if (typeof config === 'string')
      sent.push({ text: config, values: (args[1] as unknown[] | undefined) ?? [] });
    else if (config?.text) sent.push({ text: config.text, values: config.values ?? [] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

/** The texts of the SQL statements `work` sends through pg (every client of the process). */
export async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  return (await statementsSentBy(work)).map((statement) => statement.text);
}
