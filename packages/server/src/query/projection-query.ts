import { createHash } from 'node:crypto';
import { type Compilable, CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/database';
import { perDatabase } from '../db/per-database';
import { filteredQuery, plannerEstimate } from './compile/page';
import { checkedId } from './field-expression';
import { concurrentlyKeyword, runEntityIndexJob } from './index-jobs';
import type { ListParams } from './list-query';
import { forgetProjection, OWN_COLUMNS, type Projection, readyProjection } from './projection';

// Counts and aggregations of a large filtered set on the entity's projection (projection.ts). A
// statement written over content_dossier is rewritten to read the projection under the same alias:
// each projected field's value expression becomes its column. A statement that reads anything else
// of the dossier (a text field, the summary, a date of the dossier itself) stays as it is.
// A filter shape asked USES_BEFORE_BUILD times earns an index of the projection led by its filtered
// fields that holds every projected column, so its count and any aggregation are answered from the
// index alone, whatever values the filter is asked with next.

export const USES_BEFORE_BUILD = 3;
export const MAX_PER_ENTITY = 6;
/** a set up to this size is counted on content_dossier, through the field indexes (list-count.ts) */
const SMALL_SET = 1000;
/** equality fields that lead an earned index (as sort-indexes.ts) */
const MAX_EQUALITIES = 2;

/** The projection a statement over the list's filtered set reads, and the index that would serve it. */
export interface ProjectedSet {
  projection: Projection;
  /** key columns, then included columns, of the index that answers the set from the index alone */
  keys: string[];
  includes: string[];
}

/** The statement over content_dossier rewritten to read the projection, null when it reads more. */
export function rewriteForProjection(
  compiled: CompiledQuery,
  projection: Projection,
): { query: CompiledQuery; columns: string[] } | null {
  // the environment's partition, named as content_dossier (filteredQuery), read once
  const froms = [...compiled.sql.matchAll(/from "content_dossier_e\d+" as "content_dossier"/g)];
  if (froms.length !== 1) return null;
  const [{ index: at, 0: from }] = froms;
  let text = `${compiled.sql.slice(0, at)}from "${projection.table}" as "content_dossier"${compiled.sql.slice(at + from.length)}`;
  const read: string[] = [];
  for (const field of projection.fields) {
    const qualified = field.expression.replace('"values"', 'content_dossier."values"');
    const column = `"content_dossier"."${field.column}"`;
    const before = text;
    text = text.replaceAll(qualified, column).replaceAll(field.expression, column);
    if (text !== before) read.push(field.column);
  }
  // any other read of the dossier's values (outside a linked dossier's alias) or of its own columns
  if (/(^|[^.\w"])"values"|content_dossier\."values"/.test(text)) return null;
  const allowed = new Set<string>([...OWN_COLUMNS, ...projection.fields.map((f) => f.column)]);
  for (const ref of text.matchAll(/"?content_dossier"?\."?([a-z_][a-z0-9_]*)"?/g)) {
    if (!allowed.has(ref[1])) return null;
    if ((OWN_COLUMNS as readonly string[]).includes(ref[1]) && !read.includes(ref[1])) read.push(ref[1]);
  }
  return { query: CompiledQuery.raw(text, [...compiled.parameters]), columns: read };
}

/**
 * The projection to count and aggregate the list's filtered set on, with the columns `aggregated`
 * read beside the filter: null when the entity has none, the statement reads what it does not hold,
 * or the set is small (the field indexes find a few dossiers faster than any scan of the projection).
 * `large`: the caller knows the set is larger than SMALL_SET.
 */
export async function projectedSet(
  db: Db,
  params: ListParams,
  aggregated: number[],
  large = false,
): Promise<ProjectedSet | null> {
  if (params.embedded) return null;
  const projection = await readyProjection(db, params.environmentId, params.defDossierId);
  if (!projection) return null;
  const filter = rewriteForProjection(
    filteredQuery(db, params).select(sql`1`.as('one')).compile(),
    projection,
  );
  const byField = new Map(projection.fields.map((f) => [f.dataFieldId, f.column]));
  const aggregatedColumns = aggregated.map((id) => byField.get(id));
  if (!filter || aggregatedColumns.some((c) => c === undefined)) return null;
  const equalities = [...new Set(params.indexUse.equalities.map((c) => byField.get(c.dataFieldId)))]
    .filter((c): c is string => c !== undefined && filter.columns.includes(c))
    .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))
    .slice(0, MAX_EQUALITIES);
  // then one other field filtered (a range, typically): the first in field order
  const range = filter.columns.find((c) => /^f\d+$/.test(c) && !equalities.includes(c));
  const keys = range ? [...equalities, range] : equalities;
  const includes = [...new Set([...filter.columns, ...(aggregatedColumns as string[])])]
    .filter((c) => !keys.includes(c))
    .sort();
  const set = { projection, keys, includes };
  // the planner's estimate decides (counting even 1,001 matches read 2,500 dossiers: 30-60 ms)
  if (!large && !coveringIndex(set) && (await plannerEstimate(db, params)) <= SMALL_SET) return null;
  return set;
}

/** The valid index of the projection that holds every column the set reads, led by its keys. */
function coveringIndex({ projection, keys, includes }: ProjectedSet) {
  return projection.indexes.find((index) => {
    if (!index.valid || index.keys.length < keys.length) return false;
    if (keys.some((key, i) => index.keys[i] !== key)) return false;
    const held = new Set([...index.keys, ...index.includes]);
    return includes.every((c) => held.has(c));
  });
}

/**
 * PostgreSQL's cost of starting parallel workers, for a scan of the projection that a request waits
 * for (no index of it covers the set): with 300 a scan of a million dossiers' projection is read by
 * two workers (152 ms against 199-209 ms on one core). A set an index covers is read from the index
 * alone, on one core: each worker is a process started for the statement, and where starting a process
 * is slow that cost more than it saved (an index-only aggregation of 80,000 dossiers took 56-68 ms with
 * two workers against 20 ms on one core; on a machine with fast process starts, 28 against 36 ms;
 * bench/README.md, "Aggregations in parallel" and "Index-only aggregations on one core").
 */
const PARALLEL_SETUP_COST = 300;

/**
 * Runs a statement over the list's filtered set on the projection (null set: as it is). A statement
 * the projection cannot answer runs as it is; a projection dropped meanwhile is forgotten.
 * `waitedFor`: a request waits for the answer, so a scan of a large set is read with parallel workers
 * (not one an index covers, nor in a transaction of the caller's, where the caller chose its settings).
 */
export async function executeOnSet<O>(
  db: Db,
  set: ProjectedSet | null,
  query: Compilable<O>,
  { waitedFor = false } = {},
): Promise<O[]> {
  const compiled = query.compile();
  const rewritten = set ? rewriteForProjection(compiled, set.projection) : null;
  if (!set || !rewritten) return (await db.executeQuery(compiled)).rows;
  try {
    if (!waitedFor || db.isTransaction || coveringIndex(set))
      return (await db.executeQuery(rewritten.query)).rows as O[];
    return await db.transaction().execute(async (trx) => {
      await sql`set local parallel_setup_cost = ${sql.lit(PARALLEL_SETUP_COST)}`.execute(trx);
      return (await trx.executeQuery(rewritten.query)).rows as O[];
    });
  } catch (error) {
    // undefined table or column: the projection changed under this node's feet
    if (!['42P01', '42703'].includes((error as { code?: string }).code ?? '')) throw error;
    forgetProjection(db, set.projection.defDossierId);
    return (await db.executeQuery(compiled)).rows;
  }
}

const usesOf = perDatabase(() => new Map<string, number>());

/** Counts a use of the set's shape; the USES_BEFORE_BUILD-th use of an uncovered one builds its index. */
export function noteProjectedUse(
  db: Db,
  set: ProjectedSet,
  options: { concurrently?: boolean; log?: (message: string, error?: unknown) => void } = {},
): void {
  if (coveringIndex(set)) return;
  const { projection, keys } = set;
  if (keys.length === 0) return; // a full scan of an index is no faster than one of the table
  // Every projected field, not only those this request read: the same filter asked next with another
  // aggregation of the list's footer is answered from the index too (the first request with a sum
  // after a filter had earned its index for the count scanned the projection: 240-300 ms against
  // 27 ms). An index with the same keys is replaced by this one.
  const sameKeys = projection.indexes.filter((i) => i.keys.join() === keys.join());
  const includes = [
    ...new Set([
      ...set.includes,
      ...projection.fields.map((f) => f.column),
      ...sameKeys.flatMap((i) => i.includes),
    ]),
  ]
    .filter((c) => !keys.includes(c))
    .sort();
  const spec = `${keys.join(',')}|${includes.join(',')}`;
  const name = `cdpx_${checkedId(projection.defDossierId)}_${createHash('sha1').update(`${projection.table}:${spec}`).digest('hex').slice(0, 12)}`;
  const counts = usesOf(db);
  const count = (counts.get(name) ?? 0) + 1;
  counts.set(name, count);
  if (count !== USES_BEFORE_BUILD) return;
  if (projection.indexes.length - sameKeys.length >= MAX_PER_ENTITY) return;
  runEntityIndexJob(
    db,
    projection.defDossierId,
    async () => {
      const concurrently = await concurrentlyKeyword(db, options.concurrently);
      await sql
        .raw(
          `create index ${concurrently}if not exists "${name}" on "${projection.table}" (${keys.join(', ')})` +
            (includes.length ? ` include (${includes.join(', ')})` : ''),
        )
        .execute(db);
      // the indexes it replaces: the same keys, no column it lacks (read again: one may have been built meanwhile)
      forgetProjection(db, projection.defDossierId);
      const now = await readyProjection(db, projection.environmentId, projection.defDossierId);
      const held = new Set([...keys, ...includes]);
      for (const old of now?.indexes ?? [])
        if (old.name !== name && old.keys.join() === keys.join() && old.includes.every((c) => held.has(c)))
          await sql.raw(`drop index ${concurrently}if exists "${old.name}"`).execute(db);
      forgetProjection(db, projection.defDossierId);
    },
    options.log,
  );
}
