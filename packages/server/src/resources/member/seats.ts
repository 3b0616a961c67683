import { MEMBER_MESSAGES } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { forbidden } from '../../http-errors';
import { invitesWithoutLimit } from '../../policy/membership';

// The user limit of a subscription: how many people may work, active, in the environments of the
// subscription's holder (the contract admin who created them), as max_environments limits how many
// environments they create. The limits of the holder's running subscriptions add up; when one of them
// has no user limit, or the holder has no running subscription, there is none.

const SEATS_LOCK = 16_002;

/** The user limit of the holder's running subscriptions; null: no limit. */
export async function userLimit(db: Db, holderId: number): Promise<number | null> {
  const now = new Date();
  const row = await db
    .selectFrom('subscription')
    .select([
      sql<string>`count(*)`.as('running'),
      sql<string>`count(max_users)`.as('limited'),
      sql<string>`coalesce(sum(max_users), 0)`.as('max'),
    ])
    .where('user_id', '=', holderId)
    .where('starts_at', '<=', now)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  const running = Number(row.running);
  return running > 0 && Number(row.limited) === running ? Number(row.max) : null;
}

/**
 * Refuses (403) to seat one more person in the environment when the subscription of its holder has
 * no seat left; someone already active in another of the holder's environments takes no new seat.
 * Runs in the transaction that adds or activates the member, and holds the holder's seats until it ends.
 */
export async function claimSeat(
  trx: Db,
  actor: UserRow,
  environment: EnvironmentRow,
  userId: number | null,
): Promise<void> {
  const holderId = environment.created_by;
  if (holderId === null || invitesWithoutLimit(actor)) return;
  await sql`select pg_advisory_xact_lock(${SEATS_LOCK}, ${holderId})`.execute(trx);
  const limit = await userLimit(trx, holderId);
  if (limit === null) return;
  if (
    userId !== null &&
    (await seated(trx, holderId).select('eu.id').where('eu.user_id', '=', userId).executeTakeFirst())
  ) {
    return;
  }
  if ((await seatsInUse(trx, holderId)) >= limit) throw forbidden(MEMBER_MESSAGES.userLimit);
}

/** Memberships that take a seat: active people, active in an environment of the holder. */
const seated = (db: Db, holderId: number) =>
  db
    .selectFrom('environment_user as eu')
    .innerJoin('environment as e', 'e.id', 'eu.environment_id')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .where('e.created_by', '=', holderId)
    .where('eu.active', '=', true)
    .where('u.active', '=', true);

/** How many people take a seat of the holder's subscriptions. */
export async function seatsInUse(db: Db, holderId: number): Promise<number> {
  const { n } = await seated(db, holderId)
    .select(sql<string>`count(distinct eu.user_id)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
