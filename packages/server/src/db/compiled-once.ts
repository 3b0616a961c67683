import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database';

// Placeholder values no real argument takes (ids are positive): each stands for one argument while
// the query is built, and marks where its value goes among the compiled parameters.
const placeholder = (index: number) => Number.MIN_SAFE_INTEGER + index;

/**
 * A query of fixed shape on every request's path, built and compiled once per database and then run
 * with each call's values: building and compiling it through Kysely cost more CPU than PostgreSQL
 * spent running it. Every argument must reach the query as a parameter, unchanged (checked when it is
 * compiled).
 */
export function compiledOnce<Row, Args extends number[]>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
  arity: Args['length'],
): (db: Db, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<Row>; argumentAt: number[] }>();
  const compile = (db: Db) => {
    const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i)) as Args;
    const query = build(db, ...placeholders).compile();
    const argumentAt = query.parameters.map((value) => placeholders.indexOf(value as number));
    for (let i = 0; i < arity; i++)
      if (!argumentAt.includes(i))
        throw new Error(`compiledOnce: argument ${i} is not a parameter of the query`);
    const entry = { query, argumentAt };
    compiled.set(db, entry);
    return entry;
  };
  return async (db, ...args) => {
    const { query, argumentAt } = compiled.get(db) ?? compile(db);
    const parameters = query.parameters.map((value, i) => (argumentAt[i] >= 0 ? args[argumentAt[i]] : value));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
