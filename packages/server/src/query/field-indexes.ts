import { getFieldType, isFieldTypeName, parseFieldSettings, type SqlCast } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { analyzeDossierPartition, entityDossierPartition } from '../db/partitions';
import { perDatabase } from '../db/per-database';
import { checkedId, indexableCast, valueExpression } from './field-expression';
import { concurrentlyKeyword, dossierIndexesNamed, runEntityIndexJob } from './index-jobs';
import { syncProjection } from './projection';
import { dropStaleSortIndexes } from './sort-indexes';

// Keeps one partial expression index per data field that a search, advanced-search or list view
// uses (ARCHITECTURE.md, "Indexes serve the list call"), named cdx_<entity>_<data field>, and drops
// the ones nothing uses any more. The DDL is written only from integers and field-expression.ts.

export const INDEXED_VIEWS = ['search', 'advanced-search', 'list'];

export interface FieldIndexOptions {
  /** CREATE/DROP INDEX CONCURRENTLY (never inside a transaction); default: on PostgreSQL, not on PGlite. */
  concurrently?: boolean;
  /** entities with at least this many dossiers get a projection (projection.ts; default PROJECTION_FROM) */
  projectionFrom?: number;
  log?: (message: string, error?: unknown) => void;
}

export const fieldIndexName = (defDossierId: number, dataFieldId: number) =>
  `cdx_${checkedId(defDossierId)}_${checkedId(dataFieldId)}`;

const statisticsName = (indexName: string) => indexName.replace(/^cdx_/, 'cdxs_');

/** A data field that a search, advanced-search or list view uses, as its index holds it. */
export interface IndexedField {
  dataFieldId: number;
  cast: SqlCast;
  expression: string;
}

/** The data fields of the entity that get an index (and a column of its projection, projection.ts). */
export async function indexedFields(db: Db, defDossierId: number): Promise<IndexedField[]> {
  const rows = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as dd', 'dd.id', 'i.def_dossier_def_field_id')
    .innerJoin('def_field as f', 'f.id', 'dd.def_field_id')
    .select(['dd.id as data_field_id', 'f.type', 'f.settings as field_settings', 'dd.settings'])
    .where('i.def_dossier_id', '=', defDossierId)
    .where('dd.def_dossier_id', '=', defDossierId)
    .where('i.view', 'in', INDEXED_VIEWS)
    .orderBy('dd.id')
    .execute();
  const fields = new Map<number, IndexedField>();
  for (const row of rows) {
    if (!isFieldTypeName(row.type)) continue;
    const type = getFieldType(row.type);
    // base field and data field (display items rarely override what decides the index)
    const settings = parseFieldSettings(row.type, row.field_settings, row.settings);
    const cast = type.sqlCast(settings);
    // Only a value kept in `values` that can be sorted on is worth a b-tree (textarea text is neither
    // sortable nor small; system fields read the dossier's own columns).
    if (type.source(settings).from !== 'values' || !indexableCast(cast) || !type.sortable(settings)) continue;
    const expression = valueExpression(row.data_field_id, cast);
    if (expression) fields.set(row.data_field_id, { dataFieldId: row.data_field_id, cast, expression });
  }
  return [...fields.values()];
}

/** The index each used data field should have: name -> expression. */
export async function wantedFieldIndexes(db: Db, defDossierId: number): Promise<Map<string, string>> {
  const fields = await indexedFields(db, defDossierId);
  return new Map(fields.map((f) => [fieldIndexName(defDossierId, f.dataFieldId), f.expression]));
}

/** The cdx_ indexes of the entity that exist on its environment's partition, with their validity. */
export async function existingFieldIndexes(db: Db, defDossierId: number) {
  const partition = await entityDossierPartition(db, defDossierId);
  const rows = await dossierIndexesNamed(db, partition, `cdx_${checkedId(defDossierId)}_`);
  return rows.filter((row) => /^cdx_\d+_\d+$/.test(row.name));
}

/** Creates the missing indexes and drops the unused (and invalid) ones; answers what it did. */
export async function syncFieldIndexes(
  db: Db,
  defDossierId: number,
  options: FieldIndexOptions = {},
): Promise<{ created: string[]; dropped: string[] }> {
  const id = checkedId(defDossierId);
  const partition = await entityDossierPartition(db, defDossierId);
  const concurrently = await concurrentlyKeyword(db, options.concurrently);
  const wanted = await wantedFieldIndexes(db, defDossierId);
  const existing = await existingFieldIndexes(db, defDossierId);
  const created: string[] = [];
  const dropped: string[] = [];
  for (const index of existing) {
    // An invalid index is what a failed concurrent build leaves behind: drop and build again.
    if (wanted.has(index.name) && index.valid) continue;
    await sql.raw(`drop index ${concurrently}if exists ${index.name}`).execute(db);
    await sql.raw(`drop statistics if exists ${statisticsName(index.name)}`).execute(db);
    if (!wanted.has(index.name)) dropped.push(index.name);
  }
  const usedFieldIds = new Set([...wanted.keys()].map((name) => Number(name.split('_')[2])));
  dropped.push(...(await dropStaleSortIndexes(db, defDossierId, usedFieldIds, concurrently)));
  const kept = new Set(existing.filter((i) => i.valid).map((i) => i.name));
  for (const [name, expression] of wanted) {
    if (kept.has(name)) continue;
    // id last: ORDER BY <expression>, id LIMIT n reads the index in order, with no sort.
    await sql
      .raw(
        `create index ${concurrently}if not exists ${name} on ${partition} (${expression}, id) where def_dossier_id = ${id}`,
      )
      .execute(db);
    // Expression statistics: the planner ignores those of partial indexes, and without them it
    // guesses 0.5% for every range and picks the wrong index. A query pruned to one partition is
    // estimated with that partition's statistics.
    await sql
      .raw(`create statistics if not exists ${statisticsName(name)} on ${expression} from ${partition}`)
      .execute(db);
    created.push(name);
  }
  if (created.length) await analyzeDossierPartition(db, partition);
  return { created, dropped };
}

const syncQueuedOf = perDatabase(() => new Set<number>());

/**
 * Runs syncFieldIndexes in the background, then the projection's sync (its columns are the indexed
 * fields); a sync already waiting to run covers a new call too.
 */
export function scheduleFieldIndexSync(db: Db, defDossierId: number, options: FieldIndexOptions = {}): void {
  const queued = syncQueuedOf(db);
  if (queued.has(defDossierId)) return;
  queued.add(defDossierId);
  runEntityIndexJob(
    db,
    defDossierId,
    async () => {
      queued.delete(defDossierId);
      await syncFieldIndexes(db, defDossierId, options);
      await syncProjection(db, defDossierId, { from: options.projectionFrom });
    },
    options.log,
  );
}

const syncedOf = perDatabase(() => new Set<number>());

/** Once per entity per process: the list call's lazy start of the sync. */
export function ensureFieldIndexesOnce(db: Db, defDossierId: number, options: FieldIndexOptions = {}): void {
  const done = syncedOf(db);
  if (done.has(defDossierId)) return;
  done.add(defDossierId);
  scheduleFieldIndexSync(db, defDossierId, options);
}
