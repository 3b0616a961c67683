import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from './database';

// A query on every request's path, built and compiled through Kysely once and then run with each call's
// values: building and compiling a query through Kysely costs more of the server's CPU than PostgreSQL
// spends running a short one.

/**
 * A placeholder: stands for one argument while the query is built, and marks where its value goes
 * among the compiled parameters. An object, found by identity, so that no value a caller sends (a
 * filter's number, say) can be taken for one.
 */
class Placeholder {
  constructor(readonly index: number) {}
}

/** A query compiled with placeholders, and where each argument goes among its parameters. */
interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** per parameter, the index of the argument it takes, or -1 (a value of the query's own) */
  argumentAt: number[];
}

/** A query builder, or a raw `sql` statement (compiled for a database). */
type Buildable<Row> = Compilable<Row> | RawBuilder<Row>;

function compileWithPlaceholders<Row, Args extends number[]>(
  db: Db,
  build: (...args: Args) => Buildable<Row>,
  arity: number,
): Compiled<Row> {
  const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i));
  const built = build(...(placeholders as unknown as Args));
  const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
  const argumentAt = query.parameters.map((value) => (value instanceof Placeholder ? value.index : -1));
  for (let i = 0; i < arity; i++)
    if (!argumentAt.includes(i))
      throw new Error(`compiledOnce: argument ${i} is not a parameter of the query`);
  return { query, argumentAt };
}

async function runCompiled<Row>(db: Db, { query, argumentAt }: Compiled<Row>, args: readonly number[]) {
  const parameters = query.parameters.map((value, i) => (argumentAt[i] >= 0 ? args[argumentAt[i]] : value));
  return (await db.executeQuery<Row>({ ...query, parameters })).rows;
}

/** What a query's SQL is made from: objects it was built from (held weakly) and a key of the rest. */
export interface Shape {
  /** the database first, then objects the query's SQL is built from (a list's parsed filters, its sort) */
  owners: readonly [Db, ...object[]];
  /** everything else the SQL depends on, but the arguments */
  key: string;
}

/** At most this many shapes are kept per set of owners (a key varies little for the same filters). */
const SHAPES_PER_OWNERS = 32;

/**
 * A value made once per shape: kept as long as all its owners live (the entry goes with the first of
 * them to go), and per owners at most SHAPES_PER_OWNERS keys, the least recently used let go.
 */
export function perShape<T extends {}>(): (shape: Shape, make: () => T) => T {
  // owner -> (next owner -> ... -> key -> value)
  const root = new WeakMap<object, unknown>();
  return ({ owners, key }, make) => {
    let level = root;
    const last = owners.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(owners[i]) as WeakMap<object, unknown> | undefined;
      if (!next) {
        next = new WeakMap();
        level.set(owners[i], next);
      }
      level = next;
    }
    let byKey = level.get(owners[last]) as LRUCache<string, T> | undefined;
    if (!byKey) {
      byKey = new LRUCache<string, T>({ max: SHAPES_PER_OWNERS });
      level.set(owners[last], byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = make();
      byKey.set(key, value);
    }
    return value;
  };
}

/**
 * A query whose SQL varies with what it is built from (a list's filters and sort), compiled once per
 * shape (see Shape) and number of arguments, and run with each call's arguments. `build` must read
 * nothing the shape does not name, but the arguments, each of which must reach the query as a
 * parameter, unchanged.
 */
export function compiledPerShape<Row>(): <Args extends number[]>(
  shape: Shape,
  build: (...args: Args) => Buildable<Row>,
  args: Args,
) => Promise<Row[]> {
  const compiled = perShape<Compiled<Row>>();
  // async: a statement that fails to compile is a rejection of the call, as a failing query is
  return async (shape, build, args) =>
    runCompiled(
      shape.owners[0],
      compiled({ owners: shape.owners, key: `${args.length}:${shape.key}` }, () =>
        compileWithPlaceholders(shape.owners[0], build, args.length),
      ),
      args,
    );
}

/**
 * A query of fixed shape, compiled once per database (compiledPerShape with the database alone for
 * its shape). Every argument must reach the query as a parameter, unchanged (checked when it is
 * compiled).
 */
export function compiledOnce<Row, Args extends number[]>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const run = compiledPerShape<Row>();
  return (db, ...args) =>
    run({ owners: [db], key: '' }, (...placeholders: Args) => build(db, ...placeholders), args);
}
