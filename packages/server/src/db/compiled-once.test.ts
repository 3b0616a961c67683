import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { compiledOnce, compiledPerShape, perShape } from './compiled-once';
import type { Db } from './database';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.close());

describe('compiledOnce', () => {
  it('builds the query once per database and runs it with each call’s values', async () => {
    let builds = 0;
    const sumAndEcho = compiledOnce((db: Db, a: number, b: number) => {
      builds += 1;
      return db
        .selectNoFrom([
          sql<number>`${a}::int + ${b}::int`.as('sum'),
          sql<number>`${b}::int`.as('b'),
          sql<string>`${'fixed'}::text`.as('fixed'),
        ])
        .$castTo<{ sum: number; b: number; fixed: string }>();
    });
    expect(await sumAndEcho(test.db, 1, 2)).toEqual([{ sum: 3, b: 2, fixed: 'fixed' }]);
    expect(await sumAndEcho(test.db, 40, 2)).toEqual([{ sum: 42, b: 2, fixed: 'fixed' }]);
    expect(await sumAndEcho(test.db, 7, 100)).toEqual([{ sum: 107, b: 100, fixed: 'fixed' }]);
    expect(builds).toBe(1);
  });

  it('refuses a query that does not take an argument as a parameter', async () => {
    const ignoresB = compiledOnce((db: Db, a: number, _b: number) =>
      db.selectNoFrom(sql<number>`${a}::int`.as('a')),
    );
    await expect(ignoresB(test.db, 1, 2)).rejects.toThrow(/argument 1 is not a parameter/);
  });

  it('takes no value of the query’s own for an argument, whatever its number', async () => {
    const echo = compiledOnce((db: Db, a: number) =>
      db
        .selectNoFrom([
          sql<string>`${a}::bigint`.as('a'),
          sql<string>`${Number.MIN_SAFE_INTEGER}::bigint`.as('own'),
        ])
        .$castTo<{ a: number; own: number }>(),
    );
    expect(await echo(test.db, 5)).toEqual([{ a: 5, own: Number.MIN_SAFE_INTEGER }]);
  });
});

describe('compiledPerShape', () => {
  it('compiles once per owners and key, and runs each call with its own arguments', async () => {
    let builds = 0;
    const run = compiledPerShape<{ n: number; label: string }>();
    const labelled = (label: string) => (n: number) => {
      builds += 1;
      return sql<{ n: number; label: string }>`select ${n}::int as n, ${label}::text as label`;
    };
    const filters = { a: {}, b: {} };
    const shape = (owner: object, key: string) => ({ owners: [test.db, owner] as const, key });
    expect(await run(shape(filters.a, 'x'), labelled('a x'), [1])).toEqual([{ n: 1, label: 'a x' }]);
    // the same shape: compiled before, so this build (another label) is never used
    expect(await run(shape(filters.a, 'x'), labelled('not built'), [2])).toEqual([{ n: 2, label: 'a x' }]);
    expect(builds).toBe(1);
    // another owner, another key: each its own statement
    expect(await run(shape(filters.b, 'x'), labelled('b x'), [3])).toEqual([{ n: 3, label: 'b x' }]);
    expect(await run(shape(filters.a, 'y'), labelled('a y'), [4])).toEqual([{ n: 4, label: 'a y' }]);
    expect(builds).toBe(3);
  });

  it('keeps a bounded number of keys per owners, the least recently used let go', () => {
    const made: string[] = [];
    const value = perShape<string>();
    const owner = {};
    const get = (key: string) =>
      value({ owners: [test.db, owner], key }, () => {
        made.push(key);
        return key;
      });
    for (let i = 0; i < 40; i++) get(String(i));
    get('39');
    expect(made).toHaveLength(40);
    get('0'); // let go: made again
    expect(made).toHaveLength(41);
  });
});
