import type { Config } from '../config';
import type { Db } from '../db/database';
import { createSecretToken } from './secret-tokens';

/**
 * A one-time login key for the user and the link that spends it: the /login page signs in with it
 * (key_login_check), after which the user must choose a password of their own.
 */
export async function issueLoginKey(
  db: Db,
  config: Pick<Config, 'publicUrl' | 'loginKeyTtlSeconds'>,
  user: { id: number; username: string },
): Promise<{ key: string; url: string }> {
  const key = await createSecretToken(db, 'login_key', user.id, config.loginKeyTtlSeconds);
  const query = new URLSearchParams({ username: user.username, key });
  return { key, url: `${config.publicUrl}/login?${query}` };
}
