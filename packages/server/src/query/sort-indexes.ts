import { sql } from 'kysely';
import type { Db } from '../db/database';
import { entityDossierPartition } from '../db/partitions';
import { perDatabase } from '../db/per-database';
import { checkedId } from './field-expression';
import { concurrentlyKeyword, dossierIndexesNamed, runEntityIndexJob } from './index-jobs';
import type { ListParams } from './list-query';

// Sort indexes, learnt from use (ARCHITECTURE.md: indexes follow use, no operator tunes by hand).
// The field indexes (field-indexes.ts) serve one filter or one sort. A list that filters a field on
// one value and sorts on another field reads the sort index and throws away every row of the other
// values: about 1,300 rows for a page of 50 in the benchmark. After a combination has been asked
// USES_BEFORE_BUILD times on a set larger than LARGE_SET, the node builds the index
// (filtered fields..., sort field, id) for that entity, so the page is read in order from the first
// matching row. At most MAX_PER_ENTITY per entity; the field index sync drops the ones whose fields
// no view uses any more.

export const USES_BEFORE_BUILD = 20;
export const LARGE_SET = 1000;
export const MAX_PER_ENTITY = 6;
/** at most this many equality fields lead an index (more add little and widen every write) */
const MAX_EQUALITIES = 2;

export interface SortIndex {
  name: string;
  /** data field ids: the filtered ones in id order, then the sorted one */
  fieldIds: number[];
  expressions: string[];
}

const PREFIX = 'cdxc_';
const NAME = /^cdxc_(\d+)((?:_\d+)+)$/;

/** The index that would serve this list's filters and sort, or null when one index is enough. */
export function sortIndexFor(params: ListParams): SortIndex | null {
  const { equalities, sort } = params.indexUse;
  if (!sort) return null;
  const filtered = [...new Map(equalities.map((c) => [c.dataFieldId, c])).values()]
    .filter((c) => c.dataFieldId !== sort.dataFieldId)
    .sort((a, b) => a.dataFieldId - b.dataFieldId)
    .slice(0, MAX_EQUALITIES);
  if (filtered.length === 0) return null;
  const columns = [...filtered, sort];
  return {
    name: `${PREFIX}${checkedId(params.defDossierId)}_${columns.map((c) => checkedId(c.dataFieldId)).join('_')}`,
    fieldIds: columns.map((c) => c.dataFieldId),
    expressions: columns.map((c) => c.expression),
  };
}

const usesOf = perDatabase(() => new Map<string, number>());

/**
 * Counts a list request's combination of filters and sort; the request that reaches
 * USES_BEFORE_BUILD on a large set starts the build in the background (once per node).
 */
export function noteSortIndexUse(
  db: Db,
  params: ListParams,
  matches: number,
  options: { concurrently?: boolean; log?: (message: string, error?: unknown) => void } = {},
): void {
  if (matches <= LARGE_SET) return;
  const index = sortIndexFor(params);
  if (!index) return;
  const counts = usesOf(db);
  const count = (counts.get(index.name) ?? 0) + 1;
  counts.set(index.name, count);
  if (count !== USES_BEFORE_BUILD) return;
  runEntityIndexJob(
    db,
    params.defDossierId,
    () => buildSortIndex(db, params.defDossierId, index, options),
    options.log,
  );
}

/** The sort indexes of the entity on its environment's partition, with their field ids and validity. */
export async function existingSortIndexes(db: Db, defDossierId: number) {
  const partition = await entityDossierPartition(db, defDossierId);
  const rows = await dossierIndexesNamed(db, partition, `${PREFIX}${checkedId(defDossierId)}_`);
  return rows.flatMap((row) => {
    const m = NAME.exec(row.name);
    return m ? [{ ...row, fieldIds: m[2].slice(1).split('_').map(Number) }] : [];
  });
}

/** Builds the index unless it exists or the entity has MAX_PER_ENTITY already; answers whether it did. */
export async function buildSortIndex(
  db: Db,
  defDossierId: number,
  index: SortIndex,
  options: { concurrently?: boolean } = {},
): Promise<boolean> {
  const existing = await existingSortIndexes(db, defDossierId);
  if (existing.some((e) => e.name === index.name) || existing.length >= MAX_PER_ENTITY) return false;
  const concurrently = await concurrentlyKeyword(db, options.concurrently);
  const partition = await entityDossierPartition(db, defDossierId);
  // Only our own ids and the field-expression texts reach the DDL (see field-expression.ts).
  await sql
    .raw(
      `create index ${concurrently}if not exists ${index.name} on ${partition} (${index.expressions.join(', ')}, id) where def_dossier_id = ${checkedId(defDossierId)}`,
    )
    .execute(db);
  return true;
}

/**
 * Drops the entity's sort indexes that use a field outside `usedFieldIds` (no view uses it any
 * more) and the invalid ones a failed concurrent build left; answers their names.
 */
export async function dropStaleSortIndexes(
  db: Db,
  defDossierId: number,
  usedFieldIds: Set<number>,
  concurrently: string,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const index of await existingSortIndexes(db, defDossierId)) {
    if (index.valid && index.fieldIds.every((id) => usedFieldIds.has(id))) continue;
    await sql.raw(`drop index ${concurrently}if exists ${index.name}`).execute(db);
    dropped.push(index.name);
  }
  return dropped;
}
