import type { Db } from '../../db/database';
import type { DossierRow } from './read-model';

// A user's marks on a dossier: favourite and subscription (to its changes), one row each when set.

/** The user's marks on one dossier of the environment. */
export async function marks(db: Db, environmentId: number, userId: number, dossierId: number) {
  const [favourite, subscription] = await Promise.all([
    db
      .selectFrom('favourite')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossierId)
      .executeTakeFirst(),
    db
      .selectFrom('dossier_subscription')
      .select('id')
      .where('environment_id', '=', environmentId)
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossierId)
      .executeTakeFirst(),
  ]);
  return { favorite: Boolean(favourite), subscribed: Boolean(subscription) };
}

export async function setMark(
  db: Db,
  table: 'favourite' | 'dossier_subscription',
  dossier: DossierRow,
  userId: number,
  on: boolean,
) {
  if (on) {
    await db
      .insertInto(table)
      .values({ environment_id: dossier.environment_id, user_id: userId, content_dossier_id: dossier.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db
      .deleteFrom(table)
      .where('environment_id', '=', dossier.environment_id)
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossier.id)
      .execute();
  }
}

/** Which of these dossiers of the environment the user subscribes to (a list's bells). */
export async function subscribedAmong(db: Db, environmentId: number, userId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('dossier_subscription')
    .select('content_dossier_id')
    .where('environment_id', '=', environmentId)
    .where('user_id', '=', userId)
    .where('content_dossier_id', 'in', [...new Set(ids)])
    .orderBy('content_dossier_id')
    .execute();
  return rows.map((row) => ({ content_dossier_id: Number(row.content_dossier_id) }));
}
