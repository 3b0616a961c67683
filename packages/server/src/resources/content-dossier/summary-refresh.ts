import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { analyzeDossierPartition, dossierPartition } from '../../db/partitions';
import { perDatabase } from '../../db/per-database';
import {
  computeSummary,
  type Entity,
  loadSummaryConfig,
  summaryFallback,
  type Without,
  withIdWhenEmpty,
} from './summary';

// Rewriting the stored summaries of an entity's dossiers when what they show changes: its summary
// items, or the field an entity without summary items falls back on (summary.ts). The rewrite goes a
// batch at a time: no transaction holds a million rows. An entity of up to SYNC_LIMIT dossiers is
// rewritten before the admin's call answers; a larger one in the background, noted in
// summary_refresh until done, so that a node that stops half-way leaves it for the next start.

const REFRESH_BATCH = 1000;
/** Up to this many dossiers, the call that changes the summary items waits for the rewrite. */
const SYNC_LIMIT = 5_000;
/** After rewriting this many summaries, the table's statistics are refreshed for the planner. */
const ANALYZE_AFTER = 10_000;
/** Requests begun under the old configuration may still write this long after the change. */
const IN_FLIGHT_MS = 60_000;

/**
 * Rewrites the stored summaries of the entity's dossiers under its configuration as it is now (or
 * as if `without` were not in it), a batch of ids at a time, each batch on its own; only rows whose
 * texts change are written. `since`: only dossiers modified since then. Answers how many were written.
 */
export async function refreshSummaries(
  db: Db,
  entity: Entity,
  options: { since?: Date; without?: Without } = {},
): Promise<number> {
  const config = await loadSummaryConfig(db, entity, options.without);
  let after = 0;
  let written = 0;
  for (;;) {
    let query = db
      .selectFrom('content_dossier')
      .select(['id', 'values'])
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .where('id', '>', after)
      .orderBy('id')
      .limit(REFRESH_BATCH);
    if (options.since) query = query.where('modified_at', '>=', options.since);
    const rows = await query.execute();
    if (rows.length === 0) return written;
    const texts = rows.map((row) => ({
      id: Number(row.id),
      ...withIdWhenEmpty(computeSummary(config, row.values as Record<string, unknown>), Number(row.id)),
    }));
    const result = await sql`update content_dossier c set summary = x.summary, summaries = x.summaries
      from jsonb_to_recordset(cast(${JSON.stringify(texts)} as jsonb)) as x(id bigint, summary text, summaries jsonb)
      where c.environment_id = ${entity.environment_id} and c.id = x.id and (c.summary, c.summaries) is distinct from (x.summary, x.summaries)`.execute(
      db,
    );
    written += Number(result.numAffectedRows ?? 0);
    after = Number(rows[rows.length - 1].id);
  }
}

/**
 * Runs a change of the entity's summary items, then rewrites the stored summaries of its dossiers;
 * every step is safe for readers.
 * - A dossier not yet rewritten has no variant under the keys of the new items (policy/summary.ts,
 *   summaryVariantKey): a reader who may not see every item is shown its id meanwhile.
 * - A value that leaves the summaries and that not every reader may see (`leaving`: a restricted
 *   item, or the fall-back field about to be restricted) would stay in the full summaries not yet
 *   rewritten, which readers who see every remaining item read: they are rewritten without it first,
 *   before the change is written, whatever the entity's size.
 * Dossiers that requests begun under the old items wrote meanwhile are rewritten once more at the end.
 */
export async function withSummaryRefresh<T>(
  db: Db,
  entity: Entity,
  change: (db: Db) => Promise<T>,
  leaving?: Without,
): Promise<T> {
  const started = new Date(Date.now() - IN_FLIGHT_MS);
  const written = leaving ? await refreshSummaries(db, entity, { without: leaving }) : 0;
  const result = await change(db);
  await rewriteAfterChange(db, entity, started, written);
  return result;
}

/** How a write of display items bears on the summaries of their entity. */
export interface SummaryEffect {
  /** how it changes the summary items (null: not at all); `leaving`: a restricted item that leaves */
  items: { leaving?: number } | null;
  /** the data field of an item it leaves restricted to roles, if any */
  restricts: number | null;
}

/**
 * Runs a write of display items of the entity with the rewrite of its stored summaries when the
 * write changes what they show: the summary items, or the fall-back field of an entity without them
 * (compared before and after the write).
 */
export async function withSummaryUpdate<T>(
  db: Db,
  entity: Entity,
  effect: SummaryEffect,
  write: (db: Db) => Promise<T>,
): Promise<T> {
  if (effect.items) {
    const leaving = effect.items.leaving;
    return withSummaryRefresh(db, entity, write, leaving === undefined ? undefined : { item: leaving });
  }
  const before = await summaryFallback(db, entity);
  const restricted = before !== null && before === effect.restricts;
  let result: T | undefined;
  const after = async (db: Db) => {
    result = await write(db);
    return summaryFallback(db, entity);
  };
  if (restricted) {
    // the fall-back field becomes one that not every reader may see: out of every summary first
    await withSummaryRefresh(db, entity, after, { field: before });
    return result as T;
  }
  const started = new Date(Date.now() - IN_FLIGHT_MS);
  if ((await after(db)) !== before) await rewriteAfterChange(db, entity, started, 0);
  return result as T;
}

/**
 * The rewrite after a change of the entity's rules that was written elsewhere (a role taken out of
 * them, role/usage.ts) at `changedAt`, as withSummaryRefresh does after its own change.
 */
export function rewriteSummariesAfter(db: Db, entity: Entity, changedAt: Date): Promise<void> {
  return rewriteAfterChange(db, entity, new Date(changedAt.getTime() - IN_FLIGHT_MS), 0);
}

/** After a change: the rewrite itself, or for a large entity its note and a background job. */
async function rewriteAfterChange(db: Db, entity: Entity, started: Date, written: number) {
  const large = await db
    .selectFrom('content_dossier')
    .select('id')
    .where('environment_id', '=', entity.environment_id)
    .where('def_dossier_id', '=', entity.id)
    .offset(SYNC_LIMIT)
    .limit(1)
    .executeTakeFirst();
  if (!large) return rewrite(db, entity, started, written);
  await db
    .insertInto('summary_refresh')
    .values({ environment_id: entity.environment_id, def_dossier_id: entity.id, requested_at: started })
    .onConflict((oc) =>
      oc.columns(['environment_id', 'def_dossier_id']).doUpdateSet({ requested_at: started }),
    )
    .execute();
  runInBackground(db, entity);
}

/** Every dossier, then those that requests begun before the change wrote since `started`. */
async function rewrite(db: Db, entity: Entity, started: Date, written: number) {
  let total = written + (await refreshSummaries(db, entity));
  total += await refreshSummaries(db, entity, { since: started });
  // the planner's estimates of summary searches come from the statistics of the rewritten texts
  if (total >= ANALYZE_AFTER) await analyzeDossierPartition(db, dossierPartition(entity.environment_id));
}

const jobsOf = perDatabase(() => new Map<number, Promise<void>>());

/** The noted rewrite of the entity, in the background, one job at a time per entity on this node. */
function runInBackground(db: Db, entity: Entity): void {
  const running = jobsOf(db);
  const next = (running.get(entity.id) ?? Promise.resolve())
    .then(() => rewriteNoted(db, entity))
    .catch((error) => console.error(`Rewriting the summaries of entity ${entity.id} failed:`, error));
  running.set(entity.id, next);
  void next.finally(() => {
    if (running.get(entity.id) === next) running.delete(entity.id);
  });
}

/** Rewrites while a rewrite of the entity is noted; a change noted meanwhile is rewritten after. */
async function rewriteNoted(db: Db, entity: Entity) {
  for (;;) {
    const noted = await db
      .selectFrom('summary_refresh')
      .select('requested_at')
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .executeTakeFirst();
    if (!noted) return;
    await rewrite(db, entity, noted.requested_at, 0);
    await db
      .deleteFrom('summary_refresh')
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .where('requested_at', '=', noted.requested_at)
      .execute();
  }
}

/** Resumes the rewrites a stopped node left noted. Run at start. */
export async function resumeSummaryRefreshes(db: Db): Promise<void> {
  const noted = await db.selectFrom('summary_refresh').select(['environment_id', 'def_dossier_id']).execute();
  for (const row of noted)
    runInBackground(db, { id: row.def_dossier_id, environment_id: row.environment_id });
}

/** Resolves when no background rewrite runs on this database (tests). */
export async function summaryRefreshesIdle(db: Db): Promise<void> {
  const running = jobsOf(db);
  while (running.size > 0) await Promise.all([...running.values()]);
}

/**
 * Writes the variants of dossiers that have none while their entity has restricted summary items (by
 * their own roles or their field's; written before the variants existed): their readers who may not
 * see every item are shown the id meanwhile. Run in the background at start; a no-op once done.
 */
export async function writeMissingVariants(db: Db): Promise<void> {
  const entities = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
    .select(['i.environment_id', 'i.def_dossier_id as id'])
    .distinct()
    .where('i.view', '=', 'summary')
    .where((eb) =>
      eb.or([
        eb('i.permissions_type', '=', 'INCLUDE_SELECTED_ROLES'),
        sql<boolean>`cardinality(i.roles) > 0`,
        eb('d.permissions_type', '=', 'INCLUDE_SELECTED_ROLES'),
        sql<boolean>`cardinality(d.roles) > 0`,
      ]),
    )
    .execute();
  for (const entity of entities) {
    const missing = await db
      .selectFrom('content_dossier')
      .select('id')
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .where('summaries', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (missing) await withSummaryRefresh(db, entity, async () => undefined);
  }
}
