import {
  keyLoginSchema,
  LOGIN_MESSAGES,
  loginSchema,
  messageAnswerSchema,
  noContentSchema,
  OTP_HEADER,
  RECOVERY_CODE_PATTERN,
  type SsoError,
  tokenDataSchema,
  tokenTtlSchema,
} from '@dossierbase/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers, tooManyRequests, unauthorized } from '../http-errors';
import { consumeRecoveryCode } from '../resources/security/service';
import { findUserByEmail, findUserById, findUserByUsername, insertUser } from '../resources/user/service';
import { currentUser, sessionClaims } from './current-user';
import { type OidcProviderName, randomNonce, randomPKCECodeVerifier, randomState } from './oidc';
import { verifyOtpCode } from './otp';
import { verifyDecoy, verifyPassword } from './passwords';
import { isLoginThrottled, recordLoginAttempt } from './rate-limit';
import { consumeSecretToken, findSecretToken } from './secret-tokens';

const OIDC_COOKIE = 'dossierbase_oidc';
const providerParams = z.object({ provider: z.enum(['google', 'azure']) });
const loginWithError = (error: SsoError) => `/login?${new URLSearchParams({ error })}`;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, sessions, oidc } = app;

  async function guardThrottle(username: string, address: string) {
    if (await isLoginThrottled(db, config, username, address)) throw tooManyRequests(LOGIN_MESSAGES.tooMany);
  }

  app.post(
    '/login_check',
    {
      config: { access: 'public' },
      schema: { body: loginSchema, tags: ['auth'], response: answers({ 200: tokenDataSchema }) },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const address = request.ip;
      await guardThrottle(username, address);
      const user = await findUserByUsername(db, username);
      const passwordOk = user ? await verifyPassword(user.password_hash, password) : false;
      if (!user) await verifyDecoy(password);
      if (!user || !passwordOk) {
        await recordLoginAttempt(db, username, address, false);
        throw unauthorized(LOGIN_MESSAGES.incorrect);
      }
      if (user.otp_secret) {
        const code = request.headers[OTP_HEADER.toLowerCase()];
        if (typeof code !== 'string' || code === '') {
          throw unauthorized(LOGIN_MESSAGES.otpRequired, { otp_required: true });
        }
        // A recovery code stands in for the app's code once.
        const accepted = RECOVERY_CODE_PATTERN.test(code.trim().toLowerCase())
          ? await consumeRecoveryCode(db, user.id, code)
          : await verifyOtpCode(user.otp_secret, code);
        if (!accepted) {
          await recordLoginAttempt(db, username, address, false);
          throw unauthorized(LOGIN_MESSAGES.otpIncorrect, { otp_required: true });
        }
      }
      await recordLoginAttempt(db, username, address, true);
      return sessions.start(request, reply, user);
    },
  );

  // POST (the spec says GET): it spends the key and signs in. The mailed link opens the /login page,
  // whose script makes this call, so no page elsewhere can sign a visitor in and the key stays out of
  // URLs and access logs.
  app.post(
    '/key_login_check',
    {
      config: { access: 'public' },
      schema: { body: keyLoginSchema, tags: ['auth'], response: answers({ 200: tokenDataSchema }) },
    },
    async (request, reply) => {
      const { username, key } = request.body;
      await guardThrottle(username, request.ip);
      const user = await findUserByUsername(db, username);
      // Only the key's own user may spend it; a wrong username leaves the key intact.
      const keyOwner = user ? await findSecretToken(db, 'login_key', key) : null;
      const spent =
        user !== undefined &&
        keyOwner === user.id &&
        (await consumeSecretToken(db, 'login_key', key)) === user.id;
      if (!user || !spent) {
        await recordLoginAttempt(db, username, request.ip, false);
        throw unauthorized(LOGIN_MESSAGES.keyIncorrect);
      }
      // A key is handed out by someone else, so the user must choose a password of their own next.
      const updated = await db
        .updateTable('app_user')
        .set({ force_password_update: true, modified_at: new Date() })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordLoginAttempt(db, username, request.ip, true);
      return sessions.start(request, reply, updated);
    },
  );

  app.get(
    '/ttl_token',
    // the client keeps its session alive while the user fills in a forced password change
    {
      schema: { tags: ['auth'], response: answers({ 200: tokenTtlSchema }) },
      config: { access: 'signedIn', allowDuringForcedPasswordChange: true },
    },
    async (request) => {
      const claims = await sessionClaims(request);
      if (!claims) throw unauthorized();
      // The session must still be open: an ended one has no time left, whatever its token says.
      await currentUser(request);
      return { ttl: Math.max(0, claims.exp - Math.floor(Date.now() / 1000)) };
    },
  );

  // POST, as every call that changes state (the spec says GET): it rotates the refresh token.
  app.post(
    '/refresh_token',
    { config: { access: 'public' }, schema: { tags: ['auth'], response: answers({ 200: tokenDataSchema }) } },
    async (request, reply) => {
      const session = await sessions.rotateRefresh(request, reply);
      const user = session === null ? undefined : await findUserById(db, session.userId);
      if (!session || !user) {
        await sessions.end(request, reply, await sessionClaims(request));
        throw unauthorized('Session expired');
      }
      return sessions.renewAccess(request, reply, user, session.sessionId);
    },
  );

  // POST (the spec says GET): a link or an image elsewhere must not sign anyone out.
  app.post(
    '/logout_cookie',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], response: answers({ 200: messageAnswerSchema }) },
    },
    async (request, reply) => {
      await sessions.end(request, reply, await sessionClaims(request));
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/connect/:provider',
    {
      config: { access: 'public' },
      schema: { params: providerParams, tags: ['auth'], response: answers({ 302: noContentSchema }) },
    },
    async (request, reply) => {
      const { provider } = request.params;
      if (!oidc.enabled(provider))
        return reply.code(404).send({ message: `${provider} sign-in is not configured` });
      const checks = { state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() };
      const url = await oidc.authorizationUrl(provider, checks.state, checks.nonce, checks.codeVerifier);
      reply.setCookie(OIDC_COOKIE, JSON.stringify({ provider, ...checks }), {
        path: '/api/connect',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: 600,
      });
      return reply.redirect(url.href);
    },
  );

  app.get(
    '/connect/:provider/check',
    {
      config: { access: 'public' },
      schema: { params: providerParams, tags: ['auth'], response: answers({ 302: noContentSchema }) },
    },
    async (request, reply) => {
      const { provider } = request.params;
      try {
        const user = await ssoUser(request, reply, provider);
        if (!user) return reply.redirect(loginWithError('sso_unknown_user'));
        const data = await sessions.start(request, reply, user);
        const landing = new URLSearchParams({
          username: data.username,
          iat: String(data.iat),
          exp: String(data.exp),
          id: String(data.user_id),
          roles: data.roles.join(','),
        });
        return reply.redirect(`/azure?${landing}`);
      } catch (error) {
        request.log.warn({ err: error }, 'single sign-on failed');
        return reply.redirect(loginWithError('sso_failed'));
      }
    },
  );

  async function ssoUser(request: FastifyRequest, reply: FastifyReply, provider: OidcProviderName) {
    const raw = request.cookies[OIDC_COOKIE];
    reply.clearCookie(OIDC_COOKIE, { path: '/api/connect' });
    const checks = z
      .object({ provider: z.string(), state: z.string(), nonce: z.string(), codeVerifier: z.string() })
      .parse(JSON.parse(raw ?? 'null'));
    if (checks.provider !== provider) throw new Error('Sign-in started with another provider');
    const currentUrl = new URL(request.url, oidc.callbackUrl(provider));
    const identity = await oidc.identify(provider, currentUrl, checks);
    const existing = await findUserByEmail(db, identity.email);
    if (existing) return existing;
    // Azure tenants sign their people in directly: an unknown colleague gets an account. Google does not.
    if (provider !== 'azure') return null;
    const [first, ...rest] = (identity.name ?? '').split(' ');
    return insertUser(db, {
      username: identity.email,
      email: identity.email,
      password_hash: null,
      first_name: first || null,
      last_name: rest.join(' ') || null,
      roles: ['ROLE_AZURE_USER'],
      locale: null,
      private_settings: {},
      otp_secret: null,
    });
  }
};
