import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database';

/**
 * One-time secrets (login keys, reset links): only their sha256 is stored. Refresh tokens are stored
 * the same way, by SessionService, which ties each to its session.
 */
export type SecretTokenKind = 'login_key' | 'password_reset';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A new random secret and the hash under which it is stored. */
export function newSecret(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: sha256(token) };
}

export async function createSecretToken(
  db: Db,
  kind: SecretTokenKind,
  userId: number,
  ttlSeconds: number,
): Promise<string> {
  const { token, tokenHash } = newSecret();
  await db
    .insertInto(kind)
    .values({
      user_id: userId,
      token_hash: tokenHash,
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

/** Ends every unused token of this kind of the user (a newer one replaces them, a new password). */
export async function endSecretTokens(db: Db, kind: SecretTokenKind, userId: number): Promise<void> {
  await db
    .updateTable(kind)
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
