import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';

// Attempts live in the database, so every node behind a load balancer sees the same counts.
export async function isLoginThrottled(
  db: Db,
  config: Config,
  username: string,
  address: string,
): Promise<boolean> {
  const since = new Date(Date.now() - config.loginWindowSeconds * 1000);
  const row = await db
    .selectFrom('login_attempt')
    .select([
      sql<number>`count(*) filter (where lower(username) = lower(${username}))`.as('by_user'),
      sql<number>`count(*) filter (where address = ${address})`.as('by_address'),
    ])
    .where('success', '=', false)
    .where('created_at', '>', since)
    .where((eb) =>
      eb.or([eb(sql`lower(username)`, '=', username.toLowerCase()), eb('address', '=', address)]),
    )
    .executeTakeFirstOrThrow();
  return (
    Number(row.by_user) >= config.loginMaxFailuresPerUser ||
    Number(row.by_address) >= config.loginMaxFailuresPerAddress
  );
}

export async function recordLoginAttempt(db: Db, username: string, address: string, success: boolean) {
  await db.insertInto('login_attempt').values({ username, address, success }).execute();
  if (success) {
    // A successful sign-in forgives the user's earlier mistakes, not the address's.
    await db
      .deleteFrom('login_attempt')
      .where(sql`lower(username)`, '=', username.toLowerCase())
      .where('success', '=', false)
      .execute();
  }
}
