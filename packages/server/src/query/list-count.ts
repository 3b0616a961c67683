import { sql } from 'kysely';
import type { Db } from '../db/database';
import { countQuery, countUpTo, plannerEstimate } from './compile/page';
import { countedTotal, coversWholeEntity } from './dossier-counts';
import { cachedResult, peekCachedResult } from './list-cache';
import type { ListParams } from './list-query';
import { executeOnSet, noteProjectedUse, projectedSet } from './projection-query';

// The total behind pager.items. A list of the whole entity reads its counter (query/dossier-counts.ts).
// Counting 80,000 matches of a million dossiers exactly takes about a
// quarter of a second, far more than the page itself, so a total nobody asked for before is exact
// only up to EXACT_UP_TO; above that the answer carries the planner's estimate (marked estimated)
// while the exact count runs in the background and serves the next page, sort or view from the cache.

export const EXACT_UP_TO = 1000;
const PENDING = Symbol('pending');
const MAX_BACKGROUND_COUNTS = 1;
let backgroundCounts = 0;

export interface ListTotal {
  items: number;
  estimated: boolean;
}

export async function listTotal(db: Db, params: ListParams, key: string): Promise<ListTotal> {
  const known = peekCachedResult<number>(key);
  if (known) {
    const value = await Promise.race([known, Promise.resolve(PENDING)]).catch(() => PENDING);
    if (typeof value === 'number') return { items: value, estimated: false };
  }
  if (coversWholeEntity(params)) return { items: await countedTotal(db, params), estimated: false };
  const upTo = await countUpTo(db, params, EXACT_UP_TO);
  if (upTo <= EXACT_UP_TO) {
    void cachedResult(key, async () => upTo);
    return { items: upTo, estimated: false };
  }
  // Exact in the background for the requests that follow, one count at a time per node so that many
  // new filters at once do not pile up scans; a failed count is simply asked again later.
  if (backgroundCounts < MAX_BACKGROUND_COUNTS) {
    backgroundCounts += 1;
    cachedResult(key, () => backgroundCount(db, params))
      .catch(() => undefined)
      .finally(() => {
        backgroundCounts -= 1;
      });
  }
  return { items: Math.max(upTo, await plannerEstimate(db, params)), estimated: true };
}

/**
 * The exact count, on one core: with parallel workers it took both cores of a small machine for a
 * quarter of a second, and the pages of the requests meanwhile waited for them.
 */
async function backgroundCount(db: Db, params: ListParams): Promise<number> {
  // on the entity's projection when it holds what the filter reads (projection-query.ts)
  const set = await projectedSet(db, params, [], true);
  const count = await db.transaction().execute(async (trx) => {
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    const [row] = await executeOnSet(trx, set, countQuery(trx, params));
    return Number(row.count);
  });
  if (set) noteProjectedUse(db, set);
  return count;
}
