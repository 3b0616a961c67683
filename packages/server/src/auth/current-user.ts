import { PASSWORD_UPDATE_REQUIRED } from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from '../http-errors';
import { environmentOfEntity } from '../policy/entity-environment';
import { readSignedIn, readSignedInText, type SignInCheck, signedInUser } from '../policy/environment';
import { mustReplacePassword } from '../policy/user';
import { ACCESS_COOKIE, type SessionClaims } from './session';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route serves a user who must still replace a handed-out password (key login): the change
     * itself and what the client needs to show its form. Every other route that reads the signed-in
     * user answers 403 password_update_required until the change is made.
     */
    allowDuringForcedPasswordChange?: boolean;
  }
}

/** Verified claims of the access cookie, or null; verified once per request. */
export async function sessionClaims(request: FastifyRequest): Promise<SessionClaims | null> {
  if (request.claims !== undefined) return request.claims;
  const token = request.cookies[ACCESS_COOKIE];
  request.claims = token ? await request.server.sessions.verifyAccessToken(token) : null;
  return request.claims;
}

/** The active user of verified claims, while the session they were signed into is open. */
export async function readSessionUser(db: Db, claims: SessionClaims): Promise<UserRow | undefined> {
  return (await readSignedIn(db, claims, null))?.user;
}

/** The signed-in, active user of this request (session still open); 401 otherwise. */
export async function currentUser(request: FastifyRequest): Promise<UserRow> {
  if (request.user) return request.user;
  const claims = await sessionClaims(request);
  if (!claims) throw unauthorized();
  const user = await readSessionUser(request.server.db, claims);
  if (!user) throw unauthorized();
  touchSession(request, claims);
  return signedIn(request, user);
}

/** The session's last use, for the user's session list; a failed write costs the call nothing. */
function touchSession(request: FastifyRequest, claims: SessionClaims) {
  request.server.sessions.touch(claims.sessionId).catch((error) => {
    request.log.warn({ err: error }, 'recording the last use of a session failed');
  });
}

/**
 * currentUser for a call about one environment: the user's row and their standing in the
 * environment come in one statement, and the request's openEnvironment of it reads nothing more.
 */
export async function currentUserIn(request: FastifyRequest, environmentId: number | null): Promise<UserRow> {
  if (request.user || environmentId === null) return currentUser(request);
  const claims = await sessionClaims(request);
  if (!claims) throw unauthorized();
  const read = await readSignedInText(request.server.db, claims, environmentId);
  return userOfRead(request, claims, environmentId, read);
}

/** The user of a sign-in read's answer for this request (401 without one), its standing remembered. */
function userOfRead(request: FastifyRequest, claims: SessionClaims, environmentId: number, read: string) {
  const user = signedInUser(read, environmentId);
  const key = standingKey(claims, environmentId);
  if (!user) {
    lastStanding.delete(key);
    throw unauthorized();
  }
  lastStanding.set(key, read);
  touchSession(request, claims);
  return signedIn(request, user);
}

// The last sign-in read of each session in each environment, as signed_in_read answered it (text).
const lastStanding = new LRUCache<string, string>({ max: 10_000 });
const standingKey = (claims: SessionClaims, environmentId: number) => `${claims.sessionId}:${environmentId}`;

/**
 * Runs `work` (a call about one environment whose one statement is known, the list's page) for the
 * request's user with the sign-in read carried by that statement instead of a round trip of its own:
 * `work` runs for the standing the session's previous call read, and its statement reads the standing
 * again beside its rows (`check`). Its outcome (answer or error) counts only when that read is the
 * same, word for word: otherwise the call runs again for the standing read now, as if it were the
 * session's first. Nothing leaves the server before the check, and every call still reads the user,
 * the session and the membership in the database: a member deactivated a moment ago is refused.
 * Without a previous read (the session's first call here), `work` runs after currentUserIn.
 */
export async function withSignInCarried<T>(
  request: FastifyRequest,
  environmentId: number | null,
  work: (user: UserRow, check: SignInCheck | null) => Promise<T>,
): Promise<T> {
  const claims = await sessionClaims(request);
  const previous =
    claims && environmentId !== null && !request.user && lastStanding.get(standingKey(claims, environmentId));
  if (!claims || environmentId === null || !previous)
    return work(await currentUserIn(request, environmentId), null);
  const { db } = request.server;
  const check: SignInCheck = { claims, environmentId };
  let outcome: { answer: T } | { error: unknown };
  try {
    const user = signedInUser(previous, environmentId);
    if (!user) throw unauthorized();
    outcome = { answer: await work(signedIn(request, user), check) };
  } catch (error) {
    outcome = { error };
  }
  // the work failed before its statement (or never ran one): the read on its own
  const read = check.answer ?? (await readSignedInText(db, claims, environmentId));
  if (read === previous) {
    touchSession(request, claims);
    if ('error' in outcome) throw outcome.error;
    return outcome.answer;
  }
  request.user = undefined;
  return work(userOfRead(request, claims, environmentId, read), null);
}

/** The request's user, once read: refused while their password must be replaced, unless the route allows it. */
function signedIn(request: FastifyRequest, user: UserRow): UserRow {
  if (mustReplacePassword(user) && !request.routeOptions.config?.allowDuringForcedPasswordChange) {
    throw forbidden(PASSWORD_UPDATE_REQUIRED);
  }
  request.user = user;
  return user;
}

/**
 * currentUserIn for a call about one entity: the entity's environment (known to the node after its
 * first look-up, policy/entity-environment.ts) names the standing the sign-in read reads. An unknown
 * entity reads the user alone, and the caller's entity check answers 404 after the sign-in check; so
 * does a deleted entity whose environment the node still knows.
 */
export async function currentUserForEntity(
  request: FastifyRequest,
  defDossierId: number,
): Promise<{ user: UserRow; environmentId: number | null }> {
  if (!(await sessionClaims(request))) throw unauthorized();
  const environmentId = await environmentOfEntity(request.server.db, defDossierId);
  return { user: await currentUserIn(request, environmentId), environmentId };
}
