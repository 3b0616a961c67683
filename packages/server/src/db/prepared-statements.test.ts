import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { afterEach, describe, expect, it } from 'vitest';
import { onPostgresServer, testPostgresUrl } from '../../test/test-app';
import { lastOfTransaction, preparingPool } from './prepared-statements';

// PGlite runs in-process through its own dialect; the wrapper serves the pg pool only.
describe.skipIf(!onPostgresServer())('preparingPool', () => {
  // the tables the tests make themselves, each of one integer column
  type Probe = Kysely<Record<string, { n: number }>>;
  let db: Probe | undefined;
  /** what the connection sent (the start of each text) and each answer completed ('ready'), in order */
  let wire: string[] = [];
  const open = (maxStatements?: number) => {
    const pool = new pg.Pool({
      connectionString: testPostgresUrl(),
      max: 1,
      options: '-c plan_cache_mode=force_custom_plan',
    });
    wire = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client);
      // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads
      client.query = ((config: any, ...rest: any[]) => {
        const text = typeof config === 'string' ? config : config?.text;
        if (typeof text === 'string') wire.push(`sent ${text.split(' ')[0]}`);
        return query(config, ...rest);
      }) as typeof client.query;
      const { connection } = client as unknown as { connection: pg.Connection };
      connection.on('readyForQuery', () => wire.push('ready'));
      // each write to the socket: corked messages leave in one
      const socket = connection.stream as unknown as Record<
        '_write' | '_writev',
        (...args: unknown[]) => void
      >;
      for (const method of ['_write', '_writev'] as const) {
        const write = socket[method].bind(socket);
        socket[method] = (...args) => {
          wire.push('write');
          write(...args);
        };
      }
    });
    db = new Kysely({
      dialect: new PostgresDialect({ pool: preparingPool(pool, maxStatements), cursor: Cursor }),
    });
    return db;
  };
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  // without parameters: not prepared itself, so not counted in the bound
  const prepared = (conn: Probe) =>
    sql<{ statement: string; custom_plans: number; generic_plans: number }>`
      select statement, custom_plans::int, generic_plans::int from pg_prepared_statements
      where statement not like '%pg_prepared_statements%' order by name`
      .execute(conn)
      .then((r) => r.rows);
  const backend = (conn: Probe) =>
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

  describe('transactions', () => {
    let table = '';
    const rowsOf = async () => {
      const client = new pg.Client({ connectionString: testPostgresUrl() });
      await client.connect();
      try {
        return (await client.query(`select n from ${table} order by n`)).rows.map((r) => r.n);
      } finally {
        await client.end();
      }
    };
    const withTable = async (definition: string, run: (conn: Probe) => Promise<void>) => {
      const conn = open();
      table = `pipelined_probe_${process.pid}_${Date.now()}`;
      await sql`create table ${sql.id(table)} (${sql.raw(definition)})`.execute(conn);
      try {
        wire = [];
        await run(conn);
      } finally {
        await sql`drop table ${sql.id(table)}`.execute(conn);
      }
    };
    const insert = (conn: Probe, n: number) => conn.insertInto(table).values({ n });

    it('sends the begin of a transaction with its first statement: one round trip fewer', async () => {
      await withTable('n int', async (conn) => {
        await conn.transaction().execute(async (trx) => {
          await insert(trx, 1).execute();
          await insert(trx, 2).execute();
        });
        expect(wire).toEqual([
          ...['sent begin', 'sent insert', 'write', 'ready', 'ready'],
          ...['sent insert', 'write', 'ready'],
          ...['sent commit', 'write', 'ready'],
        ]);
        expect(await rowsOf()).toEqual([1, 2]);
      });
    });

    it('sends the statement marked last with the commit, and commits once', async () => {
      await withTable('n int', async (conn) => {
        await conn.transaction().execute(async (trx) => {
          await insert(trx, 1).execute();
          await lastOfTransaction(insert(trx, 2)).execute();
        });
        expect(wire).toEqual([
          ...['sent begin', 'sent insert', 'write', 'ready', 'ready'],
          ...['sent insert', 'sent commit', 'write', 'ready', 'ready'],
        ]);
        expect(await rowsOf()).toEqual([1, 2]);
      });
    });

    it('rolls the whole transaction back when the last statement fails', async () => {
      await withTable('n int check (n < 10)', async (conn) => {
        await expect(
          conn.transaction().execute(async (trx) => {
            await insert(trx, 1).execute();
            await lastOfTransaction(insert(trx, 20)).execute();
          }),
        ).rejects.toThrow(/check constraint/);
        expect(await rowsOf()).toEqual([]);
        // the connection serves the next transaction
        await conn.transaction().execute((trx) => lastOfTransaction(insert(trx, 3)).execute());
        expect(await rowsOf()).toEqual([3]);
      });
    });

    it('fails the last statement when the commit fails: nothing is acknowledged that was not stored', async () => {
      await withTable('n int unique deferrable initially deferred', async (conn) => {
        await expect(
          conn.transaction().execute(async (trx) => {
            await insert(trx, 1).execute();
            // accepted by the statement; refused by the commit, when the deferred check runs
            await lastOfTransaction(insert(trx, 1)).execute();
          }),
        ).rejects.toThrow(/duplicate key/);
        expect(await rowsOf()).toEqual([]);
      });
    });

    it('refuses a statement after the last of its transaction, and rolls back', async () => {
      await withTable('n int', async (conn) => {
        await expect(
          conn.transaction().execute(async (trx) => {
            await lastOfTransaction(insert(trx, 1)).execute();
            await insert(trx, 2).execute();
          }),
        ).rejects.toThrow(/after the last of its transaction/);
        // the commit had gone with the first statement: it stands, the second never ran
        expect(await rowsOf()).toEqual([1]);
      });
    });

    it('leaves the connection able to stream through a cursor after a transaction', async () => {
      await withTable('n int', async (conn) => {
        await conn.transaction().execute((trx) => lastOfTransaction(insert(trx, 5)).execute());
        const streamed: number[] = [];
        for await (const row of conn.selectFrom(table).select('n').where('n', '>', 0).stream(10))
          streamed.push(row.n);
        expect(streamed).toEqual([5]);
      });
    });
  });
});
