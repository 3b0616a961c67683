import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Config } from '../config';
import { JsonColumnsPlugin } from './json-columns';
import { migrations } from './migrations/index';
import { parallelWorkersOption } from './parallel-workers';
import { preparingPool } from './prepared-statements';
import type { Database } from './schema';

export type Db = Kysely<Database>;

// bigint (count(*)) arrives as a string from pg; counts here always fit in a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** What a lost connection prints by default: the pool replaces it when it is next needed. */
export const warnConnectionLost = (error: Error) =>
  console.warn(`Database connection lost (it is replaced on demand): ${error.message}`);

/** PGlite's data directory in DATA_DIR (earlier versions kept their database there: move-from-pglite.ts). */
export const pgliteDataDir = (dataDir: string) => path.join(dataDir, 'pgdata');

export async function openDatabase(
  // pgliteSnapshot: a PGlite data directory (dumpDataDir) to start from; tests use a migrated one
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & { pgliteSnapshot?: Blob },
  onConnectionError: (error: Error) => void = warnConnectionLost,
): Promise<Db> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid DATABASE_SCHEMA '${schema}'`);
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 20,
      // Connections stay open through pauses: a new one costs a backend start, cold catalogue caches
      // and every prepared statement again. With pg's default (closing idle ones after 10 s), a
      // list request after a 12 s pause, as people click, took 16-28 ms instead of 8-10 ms
      // (bench/list.ts (h)). Two stay open however long the pause.
      idleTimeoutMillis: 10 * 60_000,
      min: 2,
      keepAlive: true,
      // During an outage a request waits at most this long for a connection, then answers 503.
      connectionTimeoutMillis: 5_000,
      // custom plans for prepared statements: see prepared-statements.ts (the one fixed-shape
      // statement of every call, the sign-in read, keeps its plan inside the function
      // signed_in_read, migration 2026-11-29T0500). No JIT: compiling a plan
      // took 100-750 ms, more than the counts and exports it would speed up ever took to run.
      // PGOPTIONS (libpq's variable) adds settings of the deployment's own; the tests use it.
      // cursor_tuple_fraction 1: our one cursor (a whole-list export) reads every row, so its plan
      // should be the fastest in total, not to the first tenth (an index walk in the list's order
      // that read 80,000 rows in 2.5 s, against 1.6 s for a scan and a sort).
      // No parallel workers for the server's own index builds (earned indexes, field indexes, the
      // projection's): they run in the background, and a build with a worker took both cores of a
      // 2-core machine, slowing the requests meanwhile from 108-164 ms to 178-240 ms (bench/list.ts
      // (b cold)). One backend builds a little longer and leaves the requests the other cores.
      // Parallel workers of a query: parallel-workers.ts.
      options: [
        schema && `-c search_path=${schema}`,
        '-c plan_cache_mode=force_custom_plan',
        '-c jit=off',
        '-c cursor_tuple_fraction=1',
        '-c max_parallel_maintenance_workers=0',
        parallelWorkersOption(config.databaseUrl),
        process.env.PGOPTIONS,
      ]
        .filter(Boolean)
        .join(' '),
    });
    // A connection that PostgreSQL ends (a restart, pg_terminate_backend, the network) emits 'error':
    // on the pool while idle, on the client while checked out. Unheard, that event ends the process;
    // heard, pg drops the broken connection and opens a new one when one is next needed. The
    // request that was using it fails and answers 503 (db/availability.ts).
    pool.on('error', (error) => onConnectionError(error));
    pool.on('connect', (client) => client.on('error', onConnectionError));
    if (schema) await pool.query(`create schema if not exists ${schema}`);
    return new Kysely<Database>({
      // the cursor lets a query stream its rows (an export of a whole list)
      dialect: new PostgresDialect({ pool: preparingPool(pool), cursor: Cursor }),
      plugins: [new JsonColumnsPlugin()],
    });
  }
  // dataDir 'memory://' keeps PGlite in memory (tests).
  const dataDir = config.dataDir.startsWith('memory://') ? undefined : pgliteDataDir(config.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded only here: PGlite and its dialect weigh about 100 MB of memory a PostgreSQL node never needs.
  const [{ KyselyPGlite }, { pg_trgm }] = await Promise.all([
    import('kysely-pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  // pg_trgm backs the quick search on summaries, as on PostgreSQL.
  const { dialect } = await KyselyPGlite.create({
    dataDir,
    extensions: { pg_trgm },
    loadDataDir: config.pgliteSnapshot,
  });
  return new Kysely<Database>({ dialect, plugins: [new JsonColumnsPlugin()] });
}

const pglite = new WeakMap<Db, boolean>();
/** Whether the database is PGlite (kept for data directories of earlier versions): no streaming, no CONCURRENTLY. */
export async function isPglite(db: Db): Promise<boolean> {
  const known = pglite.get(db);
  if (known !== undefined) return known;
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  const answer = /emscripten|PGlite/i.test(rows[0]?.version ?? '');
  pglite.set(db, answer);
  return answer;
}

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** The schema this database's tables live in (the first of its search path). */
export async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0].schema;
}

export async function migrate(db: Db): Promise<void> {
  // Kysely looks for its migration tables in every schema of the database unless told which one:
  // another schema's tables (a second deployment, a parallel test run) would be taken for ours.
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(),
    migrationTableSchema: await currentSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export async function dropSchema(db: Db, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}
