import type { AggregationResult } from '@dossierbase/core';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import { perDatabase } from '../db/per-database';
import { runAggregations } from './compile/aggregate';
import { filteredSetKey } from './compile/page';
import { countedAggregations, coversWholeEntity } from './dossier-counts';
import { type EntityVersions, entityVersionsSql, summedDataVersion } from './linked-dossiers';
import { cachedResult, peekCachedResult } from './list-cache';
import { type ListTotal, listTotal } from './list-count';
import type { ListParams } from './list-query';

// The total and the aggregations beside a list's page (pager.items and results.aggregations).

export interface ListTotals {
  count: ListTotal;
  aggregations: AggregationResult[];
}

/** The keys the totals of the filtered set are cached under at `version` (list-cache.ts). */
function totalsKeys(db: Db, params: ListParams, version: string) {
  const filtered = filteredSetKey(db, params);
  const aggregated = params.aggregations.map(({ column, aggregate }) =>
    column.kind === 'link'
      ? [column.itemId, aggregate, 'link', column.link.id]
      : [column.itemId, aggregate, column.expression],
  );
  return {
    count: `count:${version}:${filtered}`,
    aggregations: `aggregations:${version}:${filtered}:${JSON.stringify(aggregated)}`,
  };
}

/**
 * The total and the aggregations of the filtered set, cached under the entity's data version. With
 * aggregations asked for, their scan counts the set as well, so the total is exact and costs no
 * scan of its own (and is cached for the paging and sorting that follow).
 */
export async function countAndAggregations(db: Db, params: ListParams, version: string): Promise<ListTotals> {
  const keys = totalsKeys(db, params, version);
  if (params.aggregations.length === 0)
    return { count: await listTotal(db, params, keys.count), aggregations: [] };
  const counted = await countedAggregations(db, params);
  if (counted) return { count: { items: counted.total, estimated: false }, aggregations: counted.results };
  const { total, results } = await cachedResult(keys.aggregations, () => runAggregations(db, params));
  void cachedResult(keys.count, async () => total);
  return { count: { items: total, estimated: false }, aggregations: results };
}

/** Per node: the data version the last page of a set of entities was read at (totalsBesidePage). */
const lastPageVersions = perDatabase(() => new LRUCache<string, string>({ max: 10_000 }));

/** The list's totals, begun before its page statement answers (totalsBesidePage). */
export interface TotalsBesidePage {
  /** the totals computed beside the page, with the data version they are computed under; null: they wait for the page */
  beside: Promise<{ version: string; totals: ListTotals }> | null;
  /**
   * the totals at the data version the page statement read; `countedTotal`: the whole entity's total
   * the page statement carried (pageWithRelations' `withCountedTotal`), which is the answer then
   */
  at(pageVersion: string, countedTotal?: number | null): Promise<ListTotals>;
}

/**
 * The list's totals, to be completed with the data version its page statement read. A filter asked
 * for the first time (or since a write) counts and aggregates beside the page statement instead of
 * after it: a new filter's count or scan took as long as its page again. Those totals are computed
 * under the version read just before them, so a figure cached under a version never predates it
 * (list-cache.ts); if the page saw another version (a write in between), they are computed again
 * under the page's. Totals the last page's version has cached, and a whole entity's counters, wait
 * for the page as before: no extra statement on the usual request.
 */
export function totalsBesidePage(
  db: Db,
  params: ListParams,
  dataVersionOf: readonly number[],
): TotalsBesidePage {
  const versions = lastPageVersions(db);
  const entities = dataVersionOf.join(',');
  const afterPage = (pageVersion: string) => {
    versions.set(entities, pageVersion);
    return countAndAggregations(db, params, pageVersion);
  };
  const last = versions.get(entities);
  if (coversWholeEntity(params) || (last !== undefined && totalsCached(db, params, last)))
    return {
      beside: null,
      at: async (pageVersion, countedTotal = null) =>
        countedTotal === null
          ? afterPage(pageVersion)
          : { count: { items: countedTotal, estimated: false }, aggregations: [] },
    };
  const beside = readDataVersion(db, dataVersionOf).then(async (version) => ({
    version,
    totals: await countAndAggregations(db, params, version),
  }));
  // heard here too: a page that fails first leaves it unawaited
  beside.catch(() => undefined);
  return {
    beside,
    at: async (pageVersion) => {
      const { version, totals } = await beside;
      if (version !== pageVersion) return afterPage(pageVersion);
      versions.set(entities, version);
      return totals;
    },
  };
}

/** Whether the totals of the filtered set at `version` are cached (or being computed). */
function totalsCached(db: Db, params: ListParams, version: string): boolean {
  const keys = totalsKeys(db, params, version);
  return peekCachedResult(params.aggregations.length ? keys.aggregations : keys.count) !== undefined;
}

/** The data version of the entities, as the page statement reads it. */
export async function readDataVersion(db: Db, entityIds: readonly number[]): Promise<string> {
  const { rows } = await sql<{
    versions: EntityVersions | null;
  }>`select ${entityVersionsSql(entityIds)} as versions`.execute(db);
  return summedDataVersion(rows[0]?.versions ?? null);
}
