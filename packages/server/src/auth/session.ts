import { randomBytes } from 'node:crypto';
import type { TokenData } from '@dossierbase/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { userAbilities } from '../policy/user';
import { recordSignIn } from './activity-record';
import { newSecret, sha256 } from './secret-tokens';

export const ACCESS_COOKIE = 'dossierbase_token';
export const REFRESH_COOKIE = 'dossierbase_refresh';

/** What a verified access token says about its bearer. */
export interface SessionClaims {
  userId: number;
  /** The sign-in this token belongs to: it is valid only while that session is open. */
  sessionId: number;
  username: string;
  roles: string[];
  rePwd: boolean;
  iat: number;
  exp: number;
}

export async function loadJwtSecret(db: Db, fromEnv: string | undefined): Promise<Uint8Array> {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  // Generated once and kept in the database so every node signs and verifies with the same key.
  await db
    .insertInto('app_setting')
    .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_setting')
    .select('value')
    .where('key', '=', 'jwt_secret')
    .executeTakeFirstOrThrow();
  return new TextEncoder().encode(row.value);
}

export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly secret: Uint8Array,
  ) {}

  async signAccessToken(
    user: Pick<UserRow, 'id' | 'username' | 'roles' | 'force_password_update'>,
    sessionId: number,
  ) {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.config.tokenTtlSeconds;
    const token = await new SignJWT({
      username: user.username,
      roles: user.roles,
      re_pwd: user.force_password_update,
      sid: sessionId,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.secret);
    const data: TokenData = {
      username: user.username,
      user_id: user.id,
      roles: user.roles,
      re_pwd: user.force_password_update,
      iat,
      exp,
      abilities: userAbilities(user),
    };
    return { token, data };
  }

  // A token's signature is checked once per node: verifying an HMAC through WebCrypto on every call
  // cost about 6% of the server's time under load. The cache holds only tokens that verified, and
  // each use checks the expiry again.
  private readonly verified = new LRUCache<string, SessionClaims>({ max: 10_000 });

  async verifyAccessToken(token: string): Promise<SessionClaims | null> {
    const known = this.verified.get(token);
    if (known) return known.exp > Date.now() / 1000 ? known : null;
    const claims = await this.verifySignature(token);
    if (claims) this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const sessionId = payload.sid;
      if (
        !Number.isInteger(userId) ||
        !Number.isInteger(sessionId) ||
        typeof payload.exp !== 'number' ||
        typeof payload.iat !== 'number'
      ) {
        return null;
      }
      return {
        userId,
        sessionId: sessionId as number,
        username: String(payload.username),
        roles: Array.isArray(payload.roles) ? payload.roles.map(String) : [],
        rePwd: payload.re_pwd === true,
        iat: payload.iat,
        exp: payload.exp,
      };
    } catch {
      return null;
    }
  }

  /** Signs the user in on this reply: a new session, access and refresh cookies; answers the token data. */
  async start(request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<TokenData> {
    const endsAt = await this.policyEnd(user.id);
    // Sessions whose refresh token expired unused are cleared here, at the user's next sign-in.
    await this.db
      .deleteFrom('user_session')
      .where('user_id', '=', user.id)
      .where('expires_at', '<', new Date())
      .execute();
    const session = await this.db
      .insertInto('user_session')
      .values({
        user_id: user.id,
        expires_at: this.refreshExpiry(),
        user_agent: request.headers['user-agent']?.slice(0, 500) ?? null,
        address: request.ip,
        ends_at: endsAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.touched.set(session.id, Date.now());
    await this.issueRefresh(request, reply, user.id, session.id);
    await recordSignIn(this.db, user.id);
    return this.renewAccess(request, reply, user, session.id);
  }

  async renewAccess(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    sessionId: number,
  ): Promise<TokenData> {
    const { token, data } = await this.signAccessToken(user, sessionId);
    reply.setCookie(ACCESS_COOKIE, token, this.cookieOptions(request, '/', this.config.tokenTtlSeconds));
    if (!user.otp_secret && (await this.twoFactorRequired(user.id))) data.two_factor_required = true;
    return data;
  }

  /** Some active environment of the user requires two-factor sign-in of its members. */
  private async twoFactorRequired(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('environment_user as eu')
      .innerJoin('environment as e', 'e.id', 'eu.environment_id')
      .select('e.id')
      .where('eu.user_id', '=', userId)
      .where('eu.active', '=', true)
      .where('e.active', '=', true)
      .where('e.require_two_factor', '=', true)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The end of a new session by the shortest session length of the user's environments; null: none set. */
  private async policyEnd(userId: number): Promise<Date | null> {
    const row = await this.db
      .selectFrom('environment_user as eu')
      .innerJoin('environment as e', 'e.id', 'eu.environment_id')
      .select((eb) => eb.fn.min('e.session_hours').as('hours'))
      .where('eu.user_id', '=', userId)
      .where('eu.active', '=', true)
      .where('e.session_hours', 'is not', null)
      .executeTakeFirst();
    const hours = row?.hours == null ? null : Number(row.hours);
    return hours === null ? null : new Date(Date.now() + hours * 3600 * 1000);
  }

  // When each session's last use was written, on this node: at most once a minute per session.
  private readonly touched = new LRUCache<number, number>({ max: 50_000 });

  /** Records that the session was used now (for the session list); cheap when it was a moment ago. */
  async touch(sessionId: number): Promise<void> {
    const last = this.touched.get(sessionId);
    if (last !== undefined && Date.now() - last < 60_000) return;
    this.touched.set(sessionId, Date.now());
    await this.db
      .updateTable('user_session')
      .set({ last_used_at: new Date() })
      .where('id', '=', sessionId)
      .execute();
  }

  /**
   * Trades the refresh cookie for a new one of the same session (rotation) and answers its user and
   * session; null when the cookie is missing, used, expired or its session has ended.
   */
  async rotateRefresh(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ userId: number; sessionId: number } | null> {
    const current = request.cookies[REFRESH_COOKIE];
    if (!current) return null;
    const spent = await this.consumeRefresh(current);
    if (!spent) return null;
    const expiresAt = this.refreshExpiry();
    // A token from before sessions existed opens one; otherwise its session must still be open.
    const session =
      spent.session_id === null
        ? await this.db
            .insertInto('user_session')
            .values({ user_id: spent.user_id, expires_at: expiresAt })
            .returning('id')
            .executeTakeFirstOrThrow()
        : await this.db
            .updateTable('user_session')
            .set({ expires_at: expiresAt })
            .where('id', '=', spent.session_id)
            // a session past the length its environments allow is over (user_session.ends_at)
            .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', new Date())]))
            .returning('id')
            .executeTakeFirst();
    if (!session) return null;
    await this.issueRefresh(request, reply, spent.user_id, session.id);
    return { userId: spent.user_id, sessionId: session.id };
  }

  /** Signs out: the session of the access cookie and of the refresh cookie end, with every token of them. */
  async end(request: FastifyRequest, reply: FastifyReply, claims: SessionClaims | null): Promise<void> {
    const refresh = request.cookies[REFRESH_COOKIE];
    const spent = refresh ? await this.consumeRefresh(refresh) : undefined;
    const sessionIds = [claims?.sessionId, spent?.session_id].filter(
      (id): id is number => typeof id === 'number',
    );
    if (sessionIds.length > 0)
      await this.db.deleteFrom('user_session').where('id', 'in', sessionIds).execute();
    reply.clearCookie(ACCESS_COOKIE, this.cookieOptions(request, '/'));
    reply.clearCookie(REFRESH_COOKIE, this.cookieOptions(request, '/api'));
  }

  /**
   * Ends every session of the user but `keptSessionId`, with their access and refresh tokens (and the
   * refresh tokens from before sessions existed, which belong to none); answers the ended sessions.
   */
  async endOthers(userId: number, keptSessionId: number): Promise<number[]> {
    const ended = await this.db
      .deleteFrom('user_session')
      .where('user_id', '=', userId)
      .where('id', '!=', keptSessionId)
      .returning('id')
      .execute();
    await this.db
      .updateTable('refresh_token')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('session_id', 'is', null)
      .where('used_at', 'is', null)
      .execute();
    return ended.map((session) => session.id);
  }

  /** Ends every session of the user (a new password): their access and refresh tokens stop working. */
  async endAll(userId: number): Promise<void> {
    await this.db.deleteFrom('user_session').where('user_id', '=', userId).execute();
    // Refresh tokens from before sessions existed belong to none.
    await this.db
      .updateTable('refresh_token')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  private async issueRefresh(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    sessionId: number,
  ) {
    const { token, tokenHash } = newSecret();
    await this.db
      .insertInto('refresh_token')
      .values({
        user_id: userId,
        session_id: sessionId,
        token_hash: tokenHash,
        expires_at: this.refreshExpiry(),
      })
      .execute();
    reply.setCookie(
      REFRESH_COOKIE,
      token,
      this.cookieOptions(request, '/api', this.config.refreshTtlSeconds),
    );
  }

  private consumeRefresh(token: string) {
    return this.db
      .updateTable('refresh_token')
      .set({ used_at: new Date() })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning(['user_id', 'session_id'])
      .executeTakeFirst();
  }

  private refreshExpiry(): Date {
    return new Date(Date.now() + this.config.refreshTtlSeconds * 1000);
  }

  private cookieOptions(request: FastifyRequest, path: string, maxAge?: number) {
    return {
      path,
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: request.protocol === 'https',
      maxAge,
    };
  }
}
