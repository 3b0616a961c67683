import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { runEntityIndexJob } from '../../query/index-jobs';

// Earned rollups of the dashboard blocks over a whole entity (migrations 2026-11-28T1840 and
// 2026-11-29T0100): a count_list_options block (list field by month of a date field or of the
// creation), a funnel (the same by creation month, summed per option), a sum_fields block and a
// date_statistics block (dossiers per day of a date field or of the creation, summed per period) read a
// few rows instead of scanning every dossier. Statement triggers insert signed deltas in the
// transaction of every write; this module earns a rollup when a block first asks for it (filled once
// in the background while the block answers by its SQL, writers never wait for it), reads it, compacts
// its deltas now and then, and drops rollups nobody read for UNUSED_DAYS.

/** At most this many rollups per entity: each one adds a little to every write of its dossiers. */
export const MAX_ROLLUPS_PER_ENTITY = 12;
const UNUSED_DAYS = 30;
/** How long a fill waits for the writes that began before its rollup existed, before it gives up. */
export const WAIT_FOR_WRITERS_MS = 60_000;
/** Deltas beyond the number of keys before the reader asks for a compaction. */
const COMPACT_AFTER = 500;

export type Grouping = {
  environmentId: number;
  entityId: number;
  /** count: the date field, null for the creation date; sum: null */
  dateFieldId: number | null;
} & (
  | {
      kind: 'count' | 'sum';
      /** the list field (count) or the summed field (sum) */
      fieldId: number;
    }
  | { kind: 'day'; fieldId: null }
);

interface KeyTotal {
  period: string | null;
  option: string | null;
  total: number;
  amount: string | null;
}

const ofGrouping = (db: Db, g: Grouping) => {
  let q = db
    .selectFrom('dashboard_rollup')
    .select(['id', 'ready', sql<boolean>`used_at < now() - interval '1 hour'`.as('stale')])
    .where('environment_id', '=', g.environmentId)
    .where('def_dossier_id', '=', g.entityId)
    .where('kind', '=', g.kind);
  q = g.fieldId === null ? q.where('field_id', 'is', null) : q.where('field_id', '=', g.fieldId);
  q =
    g.dateFieldId === null
      ? q.where('date_field_id', 'is', null)
      : q.where('date_field_id', '=', g.dateFieldId);
  return q;
};

/**
 * The not archived dossiers' totals per key of the grouping (per period of `bucket`, a to_char pattern,
 * for a day rollup), or null when it has no rollup yet (one is earned in the background) or holds a
 * value the block's SQL cannot read (the SQL answers, as before).
 */
async function keyTotals(db: Db, g: Grouping, bucket?: string): Promise<KeyTotal[] | null> {
  const rollup = await ofGrouping(db, g).executeTakeFirst();
  // none yet, or a fill that never finished (its node stopped): earned again, the SQL answers meanwhile
  if (!rollup || (!rollup.ready && rollup.stale)) {
    runEntityIndexJob(db, g.entityId, () => earnRollup(db, g));
    return null;
  }
  if (!rollup.ready) return null;
  if (rollup.stale)
    await db
      .updateTable('dashboard_rollup')
      .set({ used_at: sql`now()` })
      .where('environment_id', '=', g.environmentId)
      .where('id', '=', rollup.id)
      .execute();
  // each key's deltas summed; a day rollup's keys then summed per period of the bucket's to_char
  const period = bucket
    ? sql<string | null>`case when k.period ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        then to_char(k.period::date, ${bucket}::text) else k.period end`
    : sql<string | null>`k.period`;
  const { rows } = await sql<{
    period: string | null;
    option: string | null;
    total: string;
    amount: string | null;
    deltas: string;
    keys: string;
  }>`
    select ${period} as period, k.option, sum(k.total) as total, sum(k.amount) as amount,
      sum(k.deltas) as deltas, count(*) as keys
    from (
      select period, option, sum(total) as total, sum(amount) as amount, count(*) as deltas
      from dashboard_rollup_delta
      where environment_id = ${g.environmentId}::integer and rollup_id = ${rollup.id}::integer
        and archived = false
      group by period, option) k
    group by 1, 2`.execute(db);
  const deltas = rows.reduce((n, r) => n + Number(r.deltas), 0);
  const keys = rows.reduce((n, r) => n + Number(r.keys), 0);
  if (deltas > keys + COMPACT_AFTER)
    runEntityIndexJob(db, g.entityId, () => compactRollup(db, g.environmentId, rollup.id));
  const totals = rows
    .map((r) => ({ period: r.period, option: r.option, total: Number(r.total), amount: r.amount }))
    .filter((r) => r.total !== 0 || (r.amount !== null && Number(r.amount) !== 0));
  return totals.some((r) => r.period === '!') ? null : totals;
}

const byPeriodThenOption = (a: { period: string | null; option: string | null }, b: typeof a) =>
  compareNullsLast(a.period, b.period) || compareNullsLast(a.option, b.option);
function compareNullsLast(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** The period of a 'YYYY-MM' month in a block's date format, as the block's to_char spells it. */
function periodOfMonth(month: string | null, format: 'year_month' | 'quarter' | 'year'): string | null {
  if (month === null || format === 'year_month') return month;
  const year = month.slice(0, 4);
  return format === 'year' ? year : `${year}-Q${Math.ceil(Number(month.slice(5, 7)) / 3)}`;
}

/** A count_list_options block's rows (period, option text, count) from its rollup, or null. */
export async function rolledUpCounts(
  db: Db,
  g: Grouping & { kind: 'count' },
  format: 'year_month' | 'quarter' | 'year',
): Promise<{ period: string | null; option: string | null; count: string }[] | null> {
  const totals = await keyTotals(db, g);
  if (!totals) return null;
  const merged = new Map<string, { period: string | null; option: string | null; count: number }>();
  for (const t of totals) {
    if (t.total === 0) continue;
    const period = periodOfMonth(t.period, format);
    const key = JSON.stringify([period, t.option]);
    const row = merged.get(key) ?? { period, option: t.option, count: 0 };
    row.count += t.total;
    merged.set(key, row);
  }
  return [...merged.values()].sort(byPeriodThenOption).map((r) => ({ ...r, count: String(r.count) }));
}

/** A sum_fields block's sum (as numeric text, null when nothing to sum) and count, or null. */
export async function rolledUpSum(
  db: Db,
  g: Grouping & { kind: 'sum' },
): Promise<{ sum: string | null; count: string } | null> {
  const totals = await keyTotals(db, g);
  if (!totals) return null;
  const row = totals.find((t) => t.period === null && t.option === null);
  return { sum: row?.amount ?? null, count: String(row?.total ?? 0) };
}

/**
 * A funnel's count per option text (null: no value) over every period of a count rollup (the one by
 * creation month, whose period is never '!'), or null.
 */
export async function rolledUpOptionCounts(
  db: Db,
  g: Grouping & { kind: 'count' },
): Promise<Map<string | null, number> | null> {
  const totals = await keyTotals(db, g);
  if (!totals) return null;
  const counts = new Map<string | null, number>();
  for (const t of totals) counts.set(t.option, (counts.get(t.option) ?? 0) + t.total);
  return counts;
}

/**
 * A date_statistics block's count per period (a to_char pattern of the day; null: no date), sorted
 * by period with null last, from a day rollup; or null.
 */
export async function rolledUpPeriods(
  db: Db,
  g: Grouping & { kind: 'day' },
  pattern: string,
): Promise<{ period: string | null; count: number }[] | null> {
  const totals = await keyTotals(db, g, pattern);
  if (!totals) return null;
  return totals
    .filter((t) => t.total !== 0)
    .map((t) => ({ period: t.period, count: t.total }))
    .sort((a, b) => compareNullsLast(a.period, b.period));
}

/**
 * Creates and fills the grouping's rollup; true when it is ready. Writers never wait for it:
 * 1. the rollup is committed, not ready: from then on every write statement's trigger records deltas;
 * 2. the writes that began before may have missed it: the fill waits until they have ended;
 * 3. in one snapshot the fill counts the dossiers and deletes the deltas of the writes that snapshot
 *    holds (their effect is in the count); deltas of later writes stay, and the rollup is ready.
 * Also drops the environment's rollups nobody read for UNUSED_DAYS, and fills that never finished.
 */
export async function earnRollup(db: Db, g: Grouping): Promise<boolean> {
  await db
    .deleteFrom('dashboard_rollup')
    .where('environment_id', '=', g.environmentId)
    .where((eb) =>
      eb.or([
        eb('used_at', '<', sql<Date>`now() - make_interval(days => ${UNUSED_DAYS})`),
        eb.and([eb('ready', '=', false), eb('used_at', '<', sql<Date>`now() - interval '1 hour'`)]),
      ]),
    )
    .execute();
  // deltas a write inserted while its rollup was being deleted
  await db
    .deleteFrom('dashboard_rollup_delta')
    .where('environment_id', '=', g.environmentId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('dashboard_rollup as r')
            .select('r.id')
            .whereRef('r.environment_id', '=', 'dashboard_rollup_delta.environment_id')
            .whereRef('r.id', '=', 'dashboard_rollup_delta.rollup_id'),
        ),
      ),
    )
    .execute();
  const { n } = await db
    .selectFrom('dashboard_rollup')
    .select(sql<string>`count(*)`.as('n'))
    .where('environment_id', '=', g.environmentId)
    .where('def_dossier_id', '=', g.entityId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= MAX_ROLLUPS_PER_ENTITY) return false;
  const created = await db
    .insertInto('dashboard_rollup')
    .values({
      environment_id: g.environmentId,
      def_dossier_id: g.entityId,
      kind: g.kind,
      field_id: g.fieldId,
      date_field_id: g.dateFieldId,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  // another request or node earns it
  if (!created) return false;
  const drop = () =>
    db
      .deleteFrom('dashboard_rollup')
      .where('environment_id', '=', g.environmentId)
      .where('id', '=', created.id)
      .execute();
  try {
    if (!(await writersEnded(db))) {
      await drop();
      return false;
    }
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await trx
          .deleteFrom('dashboard_rollup_delta')
          .where('environment_id', '=', g.environmentId)
          .where('rollup_id', '=', created.id)
          .execute();
        await sql`
          insert into dashboard_rollup_delta (environment_id, rollup_id, archived, period, option, total, amount)
          select d.environment_id, ${created.id}::integer, d.archived, k.period, k.option, count(*), sum(k.amount)
          from content_dossier d
          cross join lateral dashboard_rollup_keys(${g.kind}::text, ${g.fieldId}::integer, ${g.dateFieldId}::integer, d."values", d.created_at) k
          where d.environment_id = ${g.environmentId}::integer and d.def_dossier_id = ${g.entityId}::integer
          group by 1, 2, 3, 4, 5`.execute(trx);
        await trx
          .updateTable('dashboard_rollup')
          .set({ ready: true, used_at: sql`now()` })
          .where('environment_id', '=', g.environmentId)
          .where('id', '=', created.id)
          .execute();
      });
    return true;
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}

/**
 * Waits until every transaction of this database that was writing when it was called has ended
 * (false after WAIT_FOR_WRITERS_MS): transactions that start writing later see the rollup.
 */
async function writersEnded(db: Db): Promise<boolean> {
  const { rows } = await sql<{ snapshot: string }>`select pg_current_snapshot()::text as snapshot`.execute(
    db,
  );
  const snapshot = rows[0]?.snapshot ?? '';
  const started = Date.now();
  for (;;) {
    const { rows: busy } = await sql<{ n: string }>`
      select count(*) as n from pg_stat_activity
      where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid()
        and backend_xid = any (array(select xid(x) from pg_snapshot_xip(${snapshot}::pg_snapshot) x))`.execute(
      db,
    );
    if (Number(busy[0]?.n ?? 0) === 0) return true;
    if (Date.now() - started > WAIT_FOR_WRITERS_MS) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One row per key instead of its deltas. Deletes only the deltas its snapshot sees (a delta being
 * written meanwhile stays) and puts their sums back in the same statement; the rollup row's lock keeps
 * two compactions apart (the triggers never lock it).
 */
export async function compactRollup(db: Db, environmentId: number, rollupId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('dashboard_rollup')
      .set({ used_at: sql`used_at` })
      .where('environment_id', '=', environmentId)
      .where('id', '=', rollupId)
      .returning('id')
      .executeTakeFirst();
    if (!locked) return;
    await sql`
      with gone as (
        delete from dashboard_rollup_delta where environment_id = ${environmentId}::integer and rollup_id = ${rollupId}::integer
        returning archived, period, option, total, amount)
      insert into dashboard_rollup_delta (environment_id, rollup_id, archived, period, option, total, amount)
      select ${environmentId}::integer, ${rollupId}::integer, archived, period, option, sum(total), sum(amount) from gone
      group by 3, 4, 5
      having sum(total) <> 0 or coalesce(sum(amount), 0) <> 0`.execute(trx);
  });
}
