import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { compiledOnce } from './compiled-once';
import type { Db } from './database';

describe('compiledOnce', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.close());

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
    }, 2);
    expect(await sumAndEcho(test.db, 1, 2)).toEqual([{ sum: 3, b: 2, fixed: 'fixed' }]);
    expect(await sumAndEcho(test.db, 40, 2)).toEqual([{ sum: 42, b: 2, fixed: 'fixed' }]);
    expect(await sumAndEcho(test.db, 7, 100)).toEqual([{ sum: 107, b: 100, fixed: 'fixed' }]);
    expect(builds).toBe(1);
  });

  it('refuses a query that does not take an argument as a parameter', async () => {
    const ignoresB = compiledOnce(
      (db: Db, a: number, _b: number) => db.selectNoFrom(sql<number>`${a}::int`.as('a')),
      2,
    );
    await expect(ignoresB(test.db, 1, 2)).rejects.toThrow(/argument 1 is not a parameter/);
  });
});
