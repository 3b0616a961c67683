import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { AvatarImages } from './convert';

/** Stores the user's new avatar and moves its version on; answers the user. */
export function saveAvatar(db: Db, userId: number, images: AvatarImages): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('user_avatar')
      .values({ user_id: userId, ...images })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(images))
      .execute();
    return trx
      .updateTable('app_user')
      .set({ avatar_at: new Date() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Removes the user's avatar; answers the user. */
export function removeAvatar(db: Db, userId: number): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_avatar').where('user_id', '=', userId).execute();
    return trx
      .updateTable('app_user')
      .set({ avatar_at: null })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** One size of an active user's avatar, with its upload time; undefined when there is none. */
export function readAvatar(db: Db, userId: number, size: 'small' | 'large') {
  return db
    .selectFrom('user_avatar as a')
    .innerJoin('app_user as u', 'u.id', 'a.user_id')
    .select([`a.${size} as image`, 'u.avatar_at'])
    .where('a.user_id', '=', userId)
    .where('u.active', '=', true)
    .executeTakeFirst();
}

/** The user works in an environment (active there) that the other is a member of, active or not. */
export async function areColleagues(db: Db, userId: number, otherId: number): Promise<boolean> {
  const shared = await db
    .selectFrom('environment_user as mine')
    .innerJoin('environment_user as theirs', 'theirs.environment_id', 'mine.environment_id')
    .select('mine.environment_id')
    .where('mine.user_id', '=', userId)
    .where('mine.active', '=', true)
    .where('theirs.user_id', '=', otherId)
    .limit(1)
    .executeTakeFirst();
  return shared !== undefined;
}
