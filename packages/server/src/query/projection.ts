import { createHash } from 'node:crypto';
import type { SqlCast } from '@dossierbase/core';
import { sql } from 'kysely';
import { currentSchema, type Db, isPglite } from '../db/database';
import { dossierPartition } from '../db/partitions';
import { perDatabase } from '../db/per-database';
import { countedTotal } from './dossier-counts';
import { checkedId, valueExpression } from './field-expression';
import { type IndexedField, indexedFields } from './field-indexes';

// The typed projection of a large entity (ARCHITECTURE.md, "Indexes serve the list call"): a narrow
// table cdp_<entity>_<hash> with one typed column per indexed number, date and option field
// (f<data field id>), kept by a trigger on the environment's partition in the transaction of every
// write. PostgreSQL cannot answer a count or a sum from an expression index without reading each
// dossier (its index-only scans ignore index expressions), so counts and aggregations over a large
// filtered set read this table instead (projection-query.ts), where an index earned by use answers
// them from the index alone. Free text stays out: it widens the table and its filters scan anyway.

/** Entities with at least this many dossiers get a projection. */
export const PROJECTION_FROM = 20_000;
/** The casts a projection column can hold, with the column's SQL type (dates as their ISO text). */
const COLUMN_TYPES: Partial<Record<SqlCast, string>> = {
  numeric: 'numeric',
  bigint: 'bigint',
  date: 'text',
  timestamptz: 'text',
  jsonb: 'jsonb',
};
/** A cast with the same value expression as a column of this SQL type (what the rewrite replaces). */
const CAST_OF_TYPE: Record<string, SqlCast> = {
  numeric: 'numeric',
  bigint: 'bigint',
  text: 'date',
  jsonb: 'jsonb',
};
/** The projection's own columns, besides the fields (the dossier columns a filtered set reads). */
export const OWN_COLUMNS = ['environment_id', 'def_dossier_id', 'id', 'archived'] as const;
const READY = 'ready';
/** How long a node trusts what it read of an entity's projection (another node may build or drop one). */
const TRUST_MS = 30_000;

export interface ProjectedField {
  dataFieldId: number;
  /** f<data field id> */
  column: string;
  /** the field's value expression over content_dossier (field-expression.ts) */
  expression: string;
}

/** An index of the projection: its key columns, then its included columns. */
export interface ProjectionIndex {
  name: string;
  keys: string[];
  includes: string[];
  valid: boolean;
}

export interface Projection {
  table: string;
  environmentId: number;
  defDossierId: number;
  fields: ProjectedField[];
  indexes: ProjectionIndex[];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const prefixOf = (defDossierId: number) => `cdp_${checkedId(defDossierId)}_`;
const columnOf = (dataFieldId: number) => `f${checkedId(dataFieldId)}`;

/** The fields the entity's projection holds: its indexed fields of a cast a column can hold. */
export function projectedFields(fields: IndexedField[]): (ProjectedField & { type: string })[] {
  return fields.flatMap((f) => {
    const type = COLUMN_TYPES[f.cast];
    return type
      ? [{ dataFieldId: f.dataFieldId, column: columnOf(f.dataFieldId), expression: f.expression, type }]
      : [];
  });
}

/** The table name of a projection with these columns: a new set of columns makes a new table. */
function tableName(defDossierId: number, fields: { column: string; type: string }[]): string {
  const spec = fields.map((f) => `${f.column} ${f.type}`).join(',');
  return `${prefixOf(defDossierId)}${createHash('sha1').update(spec).digest('hex').slice(0, 10)}`;
}

interface CatalogRow {
  table: string;
  note: string | null;
  columns: { name: string; type: string }[];
  indexes: { name: string; valid: boolean; keys: number; columns: string[] }[];
}

/** The entity's projection tables as the catalogue holds them, ready or not. */
async function catalogProjections(db: Db, defDossierId: number): Promise<CatalogRow[]> {
  const prefix = prefixOf(defDossierId);
  const { rows } = await sql<CatalogRow>`
    select c.relname as "table", obj_description(c.oid, 'pg_class') as note,
      (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
         order by a.attnum)
       from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
      (select coalesce(json_agg(json_build_object('name', i.relname, 'valid', x.indisvalid,
         'keys', x.indnkeyatts, 'columns',
         (select json_agg(a.attname order by k.n) from unnest(x.indkey::int2[]) with ordinality k(attnum, n)
          join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum))), '[]')
       from pg_index x join pg_class i on i.oid = x.indexrelid
       where x.indrelid = c.oid and left(i.relname, 5) = 'cdpx_') as indexes
    from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
      and left(c.relname, ${prefix.length}) = ${prefix}`.execute(db);
  return rows;
}

function projectionOf(row: CatalogRow, environmentId: number, defDossierId: number): Projection {
  const fields: ProjectedField[] = [];
  for (const column of row.columns) {
    const match = /^f(\d+)$/.exec(column.name);
    const cast = CAST_OF_TYPE[column.type];
    const expression = match && cast ? valueExpression(Number(match[1]), cast) : null;
    if (match && expression) fields.push({ dataFieldId: Number(match[1]), column: column.name, expression });
  }
  return {
    table: row.table,
    environmentId,
    defDossierId,
    fields,
    indexes: row.indexes.map((i) => ({
      name: i.name,
      valid: i.valid,
      keys: i.columns.slice(0, i.keys),
      includes: i.columns.slice(i.keys),
    })),
  };
}

const knownOf = perDatabase(() => new Map<number, { at: number; projection: Promise<Projection | null> }>());

/** The entity's ready projection (read once per TRUST_MS per node), null when it has none. */
export function readyProjection(
  db: Db,
  environmentId: number,
  defDossierId: number,
): Promise<Projection | null> {
  const cache = knownOf(db);
  const entry = cache.get(defDossierId);
  if (entry && Date.now() - entry.at < TRUST_MS) return entry.projection;
  const projection = catalogProjections(db, defDossierId).then((rows) => {
    const ready = rows.find((row) => row.note === READY);
    return ready ? projectionOf(ready, environmentId, defDossierId) : null;
  });
  // a failed read is not remembered
  projection.catch(() => cache.delete(defDossierId));
  cache.set(defDossierId, { at: Date.now(), projection });
  return projection;
}

/** Forgets what this node read of the entity's projection (after a change, or a statement that failed on it). */
export function forgetProjection(db: Db, defDossierId: number): void {
  knownOf(db).delete(defDossierId);
}

export interface ProjectionOptions {
  /** entities with at least this many dossiers get a projection (default PROJECTION_FROM) */
  from?: number;
}

/**
 * Builds the projection the entity should have (when it is large enough and its indexed fields
 * include a column a projection holds) and drops the others. Runs in the entity's index job.
 */
export async function syncProjection(
  db: Db,
  defDossierId: number,
  options: ProjectionOptions = {},
): Promise<{ built: string | null; dropped: string[] }> {
  const entity = await db
    .selectFrom('def_dossier')
    .select('environment_id')
    .where('id', '=', defDossierId)
    .executeTakeFirst();
  if (!entity) {
    await dropProjections(db, defDossierId);
    return { built: null, dropped: [] };
  }
  const environmentId = entity.environment_id;
  const fields = projectedFields(await indexedFields(db, defDossierId));
  const existing = await catalogProjections(db, defDossierId);
  const wanted = fields.length ? tableName(defDossierId, fields) : null;
  const current = existing.find((row) => row.table === wanted && row.note === READY);
  let built: string | null = null;
  if (wanted && !current) {
    const total = await countedTotal(db, { environmentId, defDossierId, archived: 'both' });
    if (total >= (options.from ?? PROJECTION_FROM)) {
      // a table of that name left by a build that did not finish is built again
      if (existing.some((row) => row.table === wanted)) await dropProjectionTable(db, wanted);
      try {
        await buildProjection(db, environmentId, defDossierId, wanted, fields);
      } catch (error) {
        // its trigger must not stay behind on the partition (a value it cannot cast would fail writes)
        await dropProjectionTable(db, wanted);
        throw error;
      }
      built = wanted;
    }
  }
  const keep = current?.table ?? built;
  const dropped: string[] = [];
  for (const row of existing)
    if (row.table !== keep) {
      await dropProjectionTable(db, row.table);
      dropped.push(row.table);
    }
  forgetProjection(db, defDossierId);
  return { built, dropped };
}

/** Drops every projection of the entity (the entity is deleted). */
export async function dropProjections(db: Db, defDossierId: number): Promise<void> {
  for (const row of await catalogProjections(db, defDossierId)) await dropProjectionTable(db, row.table);
  forgetProjection(db, defDossierId);
}

async function dropProjectionTable(db: Db, table: string): Promise<void> {
  // the function's triggers on the partition go with it
  await sql`drop function if exists ${sql.id(`${table}_sync`)}() cascade`.execute(db);
  await sql`drop table if exists ${sql.id(table)}`.execute(db);
}

/**
 * Creates the table and the trigger that keeps it, copies the entity's dossiers into it, and marks
 * it ready. The trigger exists before the copy, so no write is missed: a dossier written during the
 * copy is written by the trigger (the copy leaves rows that exist alone), and a dossier deleted
 * during the copy, which the copy may still have seen, is removed once every transaction older than
 * the copy has ended. Writers wait only for the moment the trigger is created.
 */
async function buildProjection(
  db: Db,
  environmentId: number,
  defDossierId: number,
  table: string,
  fields: (ProjectedField & { type: string })[],
): Promise<void> {
  const entity = checkedId(defDossierId);
  const environment = checkedId(environmentId);
  const partition = dossierPartition(environmentId);
  const schema = quoted(await currentSchema(db));
  const qualified = `${schema}.${quoted(table)}`;
  const syncFunction = `${schema}.${quoted(`${table}_sync`)}`;
  const columns = fields.map((f) => f.column);
  const own = OWN_COLUMNS.join(', ');
  const newValues = fields.map((f) => f.expression.replace('"values"', 'new."values"'));
  await db.transaction().execute(async (trx) => {
    await sql
      .raw(`create table ${qualified} (environment_id bigint not null, def_dossier_id bigint not null,
        id bigint not null, archived boolean not null,
        ${fields.map((f) => `${f.column} ${f.type}`).join(', ')},
        primary key (environment_id, id))`)
      .execute(trx);
    // inserts alone never trigger a vacuum soon enough for index-only scans to skip the table
    await sql
      .raw(`alter table ${qualified} set (autovacuum_vacuum_insert_scale_factor = 0.01,
        autovacuum_vacuum_scale_factor = 0.02)`)
      .execute(trx);
    await sql
      .raw(`create function ${syncFunction}() returns trigger language plpgsql as $fn$
        begin
          if tg_op = 'DELETE' then
            delete from ${qualified} where environment_id = old.environment_id and id = old.id;
            return null;
          end if;
          insert into ${qualified} (${own}, ${columns.join(', ')})
            values (new.environment_id, new.def_dossier_id, new.id, new.archived, ${newValues.join(', ')})
            on conflict (environment_id, id) do update set archived = excluded.archived,
              ${columns.map((c) => `${c} = excluded.${c}`).join(', ')};
          return null;
        end $fn$`)
      .execute(trx);
    await sql
      .raw(`create trigger "${table}_write" after insert or update of "values", archived on ${partition}
        for each row when (new.def_dossier_id = ${entity}) execute function ${syncFunction}()`)
      .execute(trx);
    await sql
      .raw(`create trigger "${table}_delete" after delete on ${partition}
        for each row when (old.def_dossier_id = ${entity}) execute function ${syncFunction}()`)
      .execute(trx);
  });
  await sql
    .raw(`insert into ${qualified} (${own}, ${columns.join(', ')})
      select ${own}, ${fields.map((f) => f.expression).join(', ')} from content_dossier
      where environment_id = ${environment} and def_dossier_id = ${entity}
      on conflict (environment_id, id) do nothing`)
    .execute(db);
  if (!(await isPglite(db))) await olderTransactionsEnded(db);
  await sql
    .raw(`delete from ${qualified} p where not exists (select 1 from content_dossier d
      where d.environment_id = ${environment} and d.id = p.id and d.def_dossier_id = ${entity})`)
    .execute(db);
  // sets the visibility map: index-only scans read no row of the table
  await sql.raw(`vacuum (analyze) ${qualified}`).execute(db);
  await sql.raw(`comment on table ${qualified} is '${READY}'`).execute(db);
}

/** Waits (up to a minute) until every transaction that began before now has ended. */
async function olderTransactionsEnded(db: Db): Promise<void> {
  const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db);
  const since = rows[0].now;
  for (let waited = 0; waited < 60_000; waited += 100) {
    const { rows: older } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
      where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
        and xact_start < ${since}`.execute(db);
    if (Number(older[0].n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
