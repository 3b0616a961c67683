import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { migrate, openDatabase, pgliteDataDir } from './database';
import {
  embeddedClusterDir,
  movedPgliteDir,
  startEmbeddedPostgres,
  stopLeftOverPostmaster,
} from './embedded-postgres';

// Earlier versions kept their embedded database in PGlite ($DATA_DIR/pgdata). PGlite runs every
// caller's statements in its one session, so two requests' transactions mix (one's rollback undoes
// the other's writes). Such a directory moves to the embedded PostgreSQL at its first start: both are
// migrated to the same schema, then every row of every table is copied in one transaction, with the
// sequences where they were and the indexes the server earned by use. The PGlite data is kept
// beside it, renamed, and nothing is removed; a move stopped half-way starts over on the next start.

/** The cluster being filled: it becomes the embedded cluster only once complete. */
const movingClusterDir = (dataDir: string) => path.join(dataDir, 'postgres.moving');
/** Rows read and written at a time; fewer of a table with bytes (a file chunk is 256 KB, twice that as JSON). */
const BATCH_ROWS = 500;
const BATCH_ROWS_WITH_BYTES = 16;
/** Tables of the migrator itself: each database keeps its own. */
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export interface MoveReport {
  tables: number;
  rows: number;
  indexes: number;
}

/** Moves DATA_DIR's PGlite database to the embedded PostgreSQL (see above). */
export async function moveFromPglite(dataDir: string): Promise<MoveReport> {
  const moving = movingClusterDir(dataDir);
  await stopLeftOverPostmaster(moving);
  rmSync(moving, { recursive: true, force: true });
  const cluster = await startEmbeddedPostgres(dataDir, {}, moving);
  let report: MoveReport;
  try {
    const source = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
    try {
      const target = await openDatabase({ databaseUrl: cluster.url, databaseSchema: null, dataDir: '' });
      try {
        await migrate(source);
        await migrate(target);
        report = await copyDatabase(source, target);
      } finally {
        await target.destroy();
      }
    } finally {
      await source.destroy();
    }
  } finally {
    await cluster.stop();
  }
  renameSync(moving, embeddedClusterDir(dataDir));
  renameSync(pgliteDataDir(dataDir), movedPgliteDir(dataDir));
  return report;
}

// Both sides are read through sql`` over Kysely<any>: the tables are found in the catalogue.
// biome-ignore lint/suspicious/noExplicitAny: any table of the schema
type AnyDb = Kysely<any>;

const rowsOf = async <T>(db: AnyDb, query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;

/**
 * The schema's tables with their columns: those that hold rows (`kind` 'r', partitions included) and
 * the partitioned parents ('p').
 */
async function tablesOf(db: AnyDb) {
  return rowsOf(
    db,
    sql<{ name: string; kind: 'r' | 'p'; columns: string[]; bytes: boolean }>`
      select c.relname as name, c.relkind as kind,
        array_agg(a.attname::text order by a.attnum) filter (where a.attgenerated = '') as columns,
        bool_or(a.atttypid = 'bytea'::regtype) as bytes
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind in ('r', 'p')
      group by c.relname, c.relkind
      order by c.relname`,
  );
}

/** An index's definition without its name, to compare indexes of the same table across databases. */
const INDEX_SHAPE = sql`regexp_replace(pg_get_indexdef(i.oid), '^(CREATE (UNIQUE )?INDEX )\\S+ ', '\\1')`;

/** The valid indexes of the schema's tables, with their definitions. */
function indexesOf(db: AnyDb) {
  return rowsOf(
    db,
    sql<{ table: string; definition: string; shape: string }>`
      select t.relname as "table", pg_get_indexdef(i.oid) as definition, ${INDEX_SHAPE} as shape
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() and t.relkind = 'r' and x.indisvalid`,
  );
}

async function copyDatabase(source: AnyDb, target: AnyDb): Promise<MoveReport> {
  const environments = await rowsOf(source, sql<{ id: number }>`select id from environment order by id`);
  const sequences = await rowsOf(
    source,
    sql<{ name: string; last_value: string | null }>`
      select sequencename as name, last_value::text from pg_sequences where schemaname = current_schema()`,
  );
  let rows = 0;
  let tables = 0;
  let targetTables = new Set<string>();
  await target.transaction().execute(async (trx) => {
    // the rows arrive as they were: no trigger fires (counters, data versions, logs are copied as
    // kept) and no foreign key is checked row by row (the source held them)
    await sql`set local session_replication_role = replica`.execute(trx);
    const emptied = (await tablesOf(trx))
      .map((t) => t.name)
      .filter((name) => !MIGRATOR_TABLES.includes(name));
    // what the target's own migrations wrote (the locales, say) gives way to the source's rows
    if (emptied.length) await sql`truncate ${sql.join(emptied.map((name) => sql.id(name)))}`.execute(trx);
    for (const { id } of environments) await sql`select create_environment_partitions(${id})`.execute(trx);
    targetTables = new Set((await tablesOf(trx)).map((t) => t.name));
    for (const table of await tablesOf(source)) {
      // the parents hold no rows of their own; the migrator's tables are each database's own; the
      // projections are tables the server builds again when a count needs one
      if (table.kind !== 'r' || MIGRATOR_TABLES.includes(table.name) || !targetTables.has(table.name))
        continue;
      tables += 1;
      rows += await copyTable(
        source,
        trx,
        table.name,
        table.columns,
        table.bytes ? BATCH_ROWS_WITH_BYTES : BATCH_ROWS,
      );
    }
    for (const { name, last_value } of sequences)
      await sql`select setval(${name}::regclass, ${last_value ?? '1'}::bigint, ${last_value !== null})`.execute(
        trx,
      );
  });
  // the indexes the server earned by use (field and sort indexes on the partitions), on the tables
  // the target has (not the projections')
  const present = new Set((await indexesOf(target)).map((i) => `${i.table} ${i.shape}`));
  let indexes = 0;
  for (const index of await indexesOf(source)) {
    if (present.has(`${index.table} ${index.shape}`) || !targetTables.has(index.table)) continue;
    await sql.raw(index.definition).execute(target);
    indexes += 1;
  }
  await sql`analyze`.execute(target);
  return { tables, rows, indexes };
}

/** Copies one table's rows, `batchRows` at a time, as JSON (every type round-trips through its text). */
async function copyTable(
  source: AnyDb,
  target: AnyDb,
  table: string,
  columns: string[],
  batchRows: number,
): Promise<number> {
  const names = sql.join(columns.map((c) => sql.id(c)));
  let copied = 0;
  // one reading transaction, so that the batches of a cursor see one snapshot
  await source.transaction().execute(async (read) => {
    await sql`declare moving cursor for select row_to_json(t)::text as row from ${sql.id(table)} t`.execute(
      read,
    );
    for (;;) {
      const batch = await rowsOf(read, sql<{ row: string }>`fetch ${sql.lit(batchRows)} from moving`);
      if (!batch.length) break;
      await sql`
        insert into ${sql.id(table)} (${names}) overriding system value
        select ${names} from json_populate_recordset(null::${sql.id(table)}, ${`[${batch.map((b) => b.row).join(',')}]`}::json)`.execute(
        target,
      );
      copied += batch.length;
    }
    await sql`close moving`.execute(read);
  });
  return copied;
}
