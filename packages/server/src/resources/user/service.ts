import { CHANGEABLE_GLOBAL_ROLES, type ChangeableGlobalRole, MEMBER_MESSAGES } from '@dossierbase/core';
import { sql } from 'kysely';
import { endResetLinks } from '../../auth/password-reset';
import type { Db } from '../../db/database';
import type { NewUser, UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { isSuperAdmin } from '../../policy/roles';

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

const GLOBAL_ROLES_LOCK = 16_003;

/**
 * The user holds exactly `roles` of the global roles a super admin changes; the roles that come with
 * the account stay. 404 for an unknown or disabled account; 400 when the last super admin would go.
 */
export function setGlobalRoles(db: Db, userId: number, roles: ChangeableGlobalRole[]): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    // one change of global roles at a time, so that two cannot take away the last two super admins
    await sql`select pg_advisory_xact_lock(${GLOBAL_ROLES_LOCK}, 0)`.execute(trx);
    const user = await findUserById(trx, userId);
    if (!user) throw notFound();
    const changeable = new Set<string>(CHANGEABLE_GLOBAL_ROLES);
    const next = [...user.roles.filter((role) => !changeable.has(role)), ...new Set(roles)];
    if (isSuperAdmin(user) && !isSuperAdmin({ roles: next })) {
      const others = await trx
        .selectFrom('app_user')
        .select('id')
        .where('id', '<>', user.id)
        .where('active', '=', true)
        .where(sql<boolean>`'ROLE_ADMIN' = any(roles)`)
        .limit(1)
        .executeTakeFirst();
      if (!others) throw badRequest({ roles: MEMBER_MESSAGES.lastSuperAdmin });
    }
    return trx
      .updateTable('app_user')
      .set({ roles: next, modified_at: new Date() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
