import { ACTIVITY_MAX_DAYS } from '@dossierbase/core';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import { perDatabase } from '../db/per-database';

// The record behind the User activity screen (migration 2026-11-27T1100): sign-ins, and the days on
// which a member worked in an environment. Rows older than the longest window the screen shows
// (ACTIVITY_MAX_DAYS) go as new ones come.

const today = () => new Date().toISOString().slice(0, 10);

/** A sign-in of the user (a session started); clears the user's sign-ins older than the kept window. */
export async function recordSignIn(db: Db, userId: number): Promise<void> {
  await db.insertInto('sign_in').values({ user_id: userId }).execute();
  await db
    .deleteFrom('sign_in')
    .where('user_id', '=', userId)
    .where(sql<boolean>`signed_in_at < now() - make_interval(days => ${ACTIVITY_MAX_DAYS})`)
    .execute();
}

// The member-days this node has already written, per database: a member's calls of one day cost one
// insert on this node, the first (another node writes its own first, which the key absorbs).
const writtenOf = perDatabase(() => new LRUCache<string, true>({ max: 50_000 }));

/** Notes that the member made a call in the environment today. */
export async function noteMemberActivity(db: Db, environmentId: number, userId: number): Promise<void> {
  const day = today();
  const key = `${environmentId}:${userId}:${day}`;
  const seen = writtenOf(db);
  if (seen.has(key)) return;
  const inserted = await db
    .insertInto('member_activity_day')
    .values({ environment_id: environmentId, day, user_id: userId })
    .onConflict((c) => c.doNothing())
    .executeTakeFirst();
  seen.set(key, true);
  // a member's first call of the day also clears the environment's days past the window (by its key)
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0)
    await db
      .deleteFrom('member_activity_day')
      .where('environment_id', '=', environmentId)
      .where(sql<boolean>`day < (now() at time zone 'UTC')::date - ${ACTIVITY_MAX_DAYS}::int`)
      .execute();
}
