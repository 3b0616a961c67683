import type { Config } from '../config';
import type { Db } from '../db/database';
import { endSecretTokens, newSecret } from './secret-tokens';

/**
 * A new reset link for the user, which ends every earlier one: only the newest link works. Null
 * when the user was sent resetMaxMailsPerUser links within resetWindowSeconds: no link, no mail.
 */
export async function issueResetLink(db: Db, config: Config, userId: number): Promise<string | null> {
  const since = new Date(Date.now() - config.resetWindowSeconds * 1000);
  return db.transaction().execute(async (trx) => {
    // One request of the user at a time, on every node, so that the count below holds.
    await trx.selectFrom('app_user').select('id').where('id', '=', userId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('password_reset')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(count) >= config.resetMaxMailsPerUser) return null;
    await endResetLinks(trx, userId);
    // Links from before the window are ended and count no more: the user keeps at most a window's.
    await trx
      .deleteFrom('password_reset')
      .where('user_id', '=', userId)
      .where('created_at', '<=', since)
      .execute();
    const { token, tokenHash } = newSecret();
    await trx
      .insertInto('password_reset')
      .values({
        user_id: userId,
        token_hash: tokenHash,
        expires_at: new Date(Date.now() + config.resetLinkTtlSeconds * 1000),
      })
      .execute();
    return token;
  });
}

/**
 * Ends every pending reset link of the user (a newer link, a new password). The rows stay until the
 * window has passed: they count the mails the user was sent.
 */
export const endResetLinks = (db: Db, userId: number) => endSecretTokens(db, 'password_reset', userId);
