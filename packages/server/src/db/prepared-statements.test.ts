import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { onPostgresServer, testPostgresUrl } from '../../test/test-app';
import { preparingPool } from './prepared-statements';

// PGlite runs in-process through its own dialect; the wrapper serves the pg pool only.
describe.skipIf(!onPostgresServer())('preparingPool', () => {
  let db: Kysely<unknown> | undefined;
  const open = (maxStatements?: number) => {
    const pool = new pg.Pool({
      connectionString: testPostgresUrl(),
      max: 1,
      options: '-c plan_cache_mode=force_custom_plan',
    });
    db = new Kysely({ dialect: new PostgresDialect({ pool: preparingPool(pool, maxStatements) }) });
    return db;
  };
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  // without parameters: not prepared itself, so not counted in the bound
  const prepared = (conn: Kysely<unknown>) =>
    sql<{ statement: string; custom_plans: number; generic_plans: number }>`
      select statement, custom_plans::int, generic_plans::int from pg_prepared_statements
      where statement not like '%pg_prepared_statements%' order by name`
      .execute(conn)
      .then((r) => r.rows);
  const backend = (conn: Kysely<unknown>) =>
    sql<{ pid: number }>`select pg_backend_pid() + ${0}::int as pid`.execute(conn).then((r) => r.rows[0].pid);

  it('runs a parameterised text as one prepared statement per connection, with custom plans and the right answers', async () => {
    const conn = open();
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const { rows } = await sql<{ n: number }>`select ${n}::int * 10 as n`.execute(conn);
      expect(rows).toEqual([{ n: n * 10 }]);
    }
    expect(await prepared(conn)).toEqual([
      { statement: 'select $1::int * 10 as n', custom_plans: 7, generic_plans: 0 },
    ]);
  });

  it('leaves statements without parameters (DDL, several statements) to the simple protocol', async () => {
    const conn = open();
    await sql`create temporary table t (n int); insert into t values (1)`.execute(conn);
    expect((await sql<{ n: number }>`select n from t`.execute(conn)).rows).toEqual([{ n: 1 }]);
    expect(await prepared(conn)).toEqual([]);
  });

  it('keeps working after a statement fails to parse or to run', async () => {
    const conn = open();
    await expect(sql`select ${1}::int from no_such_table`.execute(conn)).rejects.toThrow(/no_such_table/);
    await expect(sql`select 1 / ${0}::int`.execute(conn)).rejects.toThrow(/division by zero/);
    expect((await sql<{ n: number }>`select 1 / ${1}::int as n`.execute(conn)).rows).toEqual([{ n: 1 }]);
    expect((await sql<{ n: number }>`select ${2}::int as n`.execute(conn)).rows).toEqual([{ n: 2 }]);
  });

  it('deallocates the text used least recently past the bound, on the same connection', async () => {
    const conn = open(2);
    const first = await backend(conn); // statement 1
    const one = () => sql<{ n: number }>`select ${1}::int as n`.execute(conn);
    await one(); // statement 2: the cache is full
    await backend(conn); // statement 1 used again: statement 2 is now the oldest
    expect((await sql<{ n: number }>`select ${3}::int + 1 as n`.execute(conn)).rows).toEqual([{ n: 4 }]);
    expect((await prepared(conn)).map((p) => p.statement)).toEqual([
      'select pg_backend_pid() + $1::int as pid',
      'select $1::int + 1 as n',
    ]);
    // the evicted text is prepared again under a new name, and the connection stays the same
    expect((await one()).rows).toEqual([{ n: 1 }]);
    expect(await backend(conn)).toBe(first);
    expect(await prepared(conn)).toHaveLength(2);
  });

  it('keeps the bound through statements that failed to prepare', async () => {
    const conn = open(2);
    for (let i = 0; i < 4; i++)
      await expect(sql`select ${i}::int from ${sql.id(`no_such_table_${i}`)}`.execute(conn)).rejects.toThrow(
        /no_such_table/,
      );
    expect((await sql<{ n: number }>`select ${5}::int as n`.execute(conn)).rows).toEqual([{ n: 5 }]);
    expect((await sql<{ n: number }>`select ${6}::int + 1 as n`.execute(conn)).rows).toEqual([{ n: 7 }]);
    expect((await sql<{ n: number }>`select ${7}::int + 2 as n`.execute(conn)).rows).toEqual([{ n: 9 }]);
    expect(await prepared(conn)).toHaveLength(2);
  });

  it('replaces a connection whose prepared statements a table change made stale', async () => {
    const conn = open();
    const table = sql.id(`prepared_probe_${process.pid}_${Date.now()}`);
    await sql`create table ${table} (a int)`.execute(conn);
    try {
      await sql`insert into ${table} values (1)`.execute(conn);
      const read = () => sql`select * from ${table} where a = ${1}`.execute(conn);
      expect((await read()).rows).toEqual([{ a: 1 }]);
      const before = await backend(conn);
      await sql`alter table ${table} add column b int`.execute(conn);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      expect((await read()).rows).toEqual([{ a: 1, b: null }]);
      expect(await backend(conn)).not.toBe(before);
    } finally {
      await sql`drop table ${table}`.execute(conn);
    }
  });
});
