import { sql } from 'kysely';
import { endResetLinks } from '../../auth/password-reset';
import type { Db } from '../../db/database';
import type { NewUser, UserRow } from '../../db/schema';

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('app_user')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('active', '=', true)
    .executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('app_user')
    .selectAll()
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('app_user')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('active', '=', true)
    .orderBy('id')
    .executeTakeFirst();
}

export function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('app_user').values(user).returningAll().executeTakeFirstOrThrow();
}

/**
 * Sets the user's new password (hashed): the forced change after a key login is done, and every
 * pending reset link ends with the old password. Sessions are SessionService's to end.
 */
export function setNewPassword(db: Db, userId: number, passwordHash: string): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('app_user')
      .set({ password_hash: passwordHash, force_password_update: false, modified_at: new Date() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await endResetLinks(trx, userId);
    return user;
  });
}
