import { LOGIN_MESSAGES } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { tooManyRequests } from '../http-errors';

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

/** 429 while the user or the address has had too many failed sign-ins (or password guesses). */
export async function refuseWhenLoginThrottled(db: Db, config: Config, username: string, address: string) {
  if (await isLoginThrottled(db, config, username, address)) throw tooManyRequests(LOGIN_MESSAGES.tooMany);
}

/**
 * Counts a forgot_password request of `address`; false (and not counted) when the address made
 * resetMaxRequestsPerAddress of them within resetWindowSeconds. Every request counts, whether or not
 * it names an account, so the answer tells nothing about which accounts exist.
 */
export async function allowResetRequest(db: Db, config: Config, address: string): Promise<boolean> {
  const since = new Date(Date.now() - config.resetWindowSeconds * 1000);
  return db.transaction().execute(async (trx) => {
    // Parallel requests of one address are counted one after the other, on every node.
    await sql`select pg_advisory_xact_lock(hashtext('dossierbase:password_reset_request'), hashtext(${address}))`.execute(
      trx,
    );
    // Requests older than the window count for nobody any more; rows another request is deleting
    // are skipped, so that two requests never wait for each other here.
    await trx
      .deleteFrom('password_reset_request')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('password_reset_request')
          .select('id')
          .where('created_at', '<=', since)
          .forUpdate()
          .skipLocked(),
      )
      .execute();
    const { count } = await trx
      .selectFrom('password_reset_request')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('address', '=', address)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(count) >= config.resetMaxRequestsPerAddress) return false;
    await trx.insertInto('password_reset_request').values({ address }).execute();
    return true;
  });
}
