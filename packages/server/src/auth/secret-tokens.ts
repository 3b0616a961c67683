import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database';

/** One-time secrets (refresh tokens, login keys, reset links): only their sha256 is stored. */
export type SecretTokenKind = 'refresh_token' | 'login_key' | 'password_reset';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export async function createSecretToken(
  db: Db,
  kind: SecretTokenKind,
  userId: number,
  ttlSeconds: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto(kind)
    .values({
      user_id: userId,
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

/** The user id a live, unused token belongs to, or null. */
export async function findSecretToken(db: Db, kind: SecretTokenKind, token: string): Promise<number | null> {
  const row = await db
    .selectFrom(kind)
    .select('user_id')
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Marks the token used and answers its user id; a second call for the same token answers null. */
export async function consumeSecretToken(
  db: Db,
  kind: SecretTokenKind,
  token: string,
): Promise<number | null> {
  const row = await db
    .updateTable(kind)
    .set({ used_at: new Date() })
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}
