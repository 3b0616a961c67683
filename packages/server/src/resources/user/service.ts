import { sql } from 'kysely';
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
