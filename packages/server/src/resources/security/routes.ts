import {
  endedSessionsSchema,
  idParamSchema,
  LOGIN_MESSAGES,
  PASSWORD_MESSAGES,
  passwordConfirmSchema,
  recoveryCodesSchema,
  SECURITY_MESSAGES,
  securityOverviewSchema,
  securityPolicySchema,
  twoFactorConfirmSchema,
  twoFactorSetupSchema,
  userSessionListSchema,
} from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { generateURI } from 'otplib';
import { z } from 'zod';
import { currentUser, sessionClaims } from '../../auth/current-user';
import { generateOtpSecret, verifyOtpCode } from '../../auth/otp';
import { verifyPassword } from '../../auth/passwords';
import { recordLoginAttempt, refuseWhenLoginThrottled } from '../../auth/rate-limit';
import type { UserRow } from '../../db/schema';
import { answers, badRequest, unauthorized } from '../../http-errors';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { issueRecoveryCodes, policyOf, recoveryCodesLeft, userPolicy } from './service';

const OTP_ISSUER = 'Dossierbase';

export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  async function overview(user: Pick<UserRow, 'id' | 'otp_secret'>) {
    const policy = await userPolicy(db, user.id);
    return {
      two_factor: user.otp_secret !== null,
      recovery_codes_left: user.otp_secret === null ? 0 : await recoveryCodesLeft(db, user.id),
      required_by: policy.required_by,
      password: policy.password,
    };
  }

  /** The user's password, as on sign-in: guesses count toward the sign-in limit. */
  async function confirmPassword(request: FastifyRequest, user: UserRow, password: string) {
    await refuseWhenLoginThrottled(db, config, user.username, request.ip);
    const correct = await verifyPassword(user.password_hash, password);
    await recordLoginAttempt(db, user.username, request.ip, correct);
    if (!correct) throw badRequest({ password: PASSWORD_MESSAGES.incorrect });
  }

  app.get(
    '/user/security',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['security'], response: answers({ 200: securityOverviewSchema }) },
    },
    async (request) => overview(await currentUser(request)),
  );

  // A new secret, kept aside until the user proves with a first code that their app holds it.
  app.post(
    '/user/two_factor/setup',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['security'], response: answers({ 200: twoFactorSetupSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      if (user.otp_secret) throw badRequest({ two_factor: SECURITY_MESSAGES.alreadyOn });
      const secret = generateOtpSecret();
      await db
        .updateTable('app_user')
        .set({ otp_pending_secret: secret, modified_at: new Date() })
        .where('id', '=', user.id)
        .execute();
      return {
        secret,
        otpauth_url: generateURI({ issuer: OTP_ISSUER, label: user.email ?? user.username, secret }),
      };
    },
  );

  app.post(
    '/user/two_factor/confirm',
    {
      config: { access: 'signedIn' },
      schema: {
        body: twoFactorConfirmSchema,
        tags: ['security'],
        response: answers({ 200: recoveryCodesSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      if (user.otp_secret) throw badRequest({ code: SECURITY_MESSAGES.alreadyOn });
      if (!user.otp_pending_secret) throw badRequest({ code: SECURITY_MESSAGES.notStarted });
      await refuseWhenLoginThrottled(db, config, user.username, request.ip);
      const correct = await verifyOtpCode(user.otp_pending_secret, request.body.code);
      await recordLoginAttempt(db, user.username, request.ip, correct);
      if (!correct) throw badRequest({ code: LOGIN_MESSAGES.otpIncorrect });
      const switched = await db
        .updateTable('app_user')
        .set({ otp_secret: user.otp_pending_secret, otp_pending_secret: null, modified_at: new Date() })
        .where('id', '=', user.id)
        .where('otp_secret', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!switched) throw badRequest({ code: SECURITY_MESSAGES.alreadyOn });
      return { recovery_codes: await issueRecoveryCodes(db, user.id) };
    },
  );

  app.post(
    '/user/two_factor/recovery_codes',
    {
      config: { access: 'signedIn' },
      schema: {
        body: passwordConfirmSchema,
        tags: ['security'],
        response: answers({ 200: recoveryCodesSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      if (!user.otp_secret) throw badRequest({ two_factor: SECURITY_MESSAGES.notOn });
      await confirmPassword(request, user, request.body.password);
      return { recovery_codes: await issueRecoveryCodes(db, user.id) };
    },
  );

  // Turning it off needs the password: a session left open somewhere must not be enough.
  app.post(
    '/user/two_factor/disable',
    {
      config: { access: 'signedIn' },
      schema: {
        body: passwordConfirmSchema,
        tags: ['security'],
        response: answers({ 200: securityOverviewSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      if (!user.otp_secret) throw badRequest({ two_factor: SECURITY_MESSAGES.notOn });
      await confirmPassword(request, user, request.body.password);
      const updated = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_recovery_code').where('user_id', '=', user.id).execute();
        return trx
          .updateTable('app_user')
          .set({ otp_secret: null, otp_pending_secret: null, modified_at: new Date() })
          .where('id', '=', user.id)
          .returning(['id', 'otp_secret'])
          .executeTakeFirstOrThrow();
      });
      return overview(updated);
    },
  );

  app.get(
    '/user/session',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['security'], response: answers({ 200: userSessionListSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const claims = await sessionClaims(request);
      const rows = await db
        .selectFrom('user_session')
        .select(['id', 'user_agent', 'address', 'created_at', 'last_used_at'])
        .where('user_id', '=', user.id)
        .where('expires_at', '>', new Date())
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', new Date())]))
        .orderBy('last_used_at', 'desc')
        .orderBy('id', 'desc')
        .limit(200)
        .execute();
      return {
        results: rows.map((row) => ({
          id: row.id,
          user_agent: row.user_agent,
          address: row.address,
          created_at: row.created_at.toISOString(),
          last_used_at: row.last_used_at.toISOString(),
          current: row.id === claims?.sessionId,
        })),
      };
    },
  );

  // Every other session of the user ends, with its access and refresh tokens: their next call gets 401.
  app.post(
    '/user/session/end_others',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['security'], response: answers({ 200: endedSessionsSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const claims = await sessionClaims(request);
      if (!claims) throw unauthorized();
      const ended = await app.sessions.endOthers(user.id, claims.sessionId);
      // their live-update connections close too
      app.realtime.endSessions(ended);
      return { ended: ended.length };
    },
  );

  app.get(
    '/environment/:id/security_policy',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: z.object({ id: idParamSchema }),
        tags: ['security'],
        response: answers({ 200: securityPolicySchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { environment } = await requireEnvironmentAdmin(db, user, request.params.id);
      return policyOf(environment);
    },
  );

  app.put(
    '/environment/:id/security_policy',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: z.object({ id: idParamSchema }),
        body: securityPolicySchema,
        tags: ['security'],
        response: answers({ 200: securityPolicySchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.params.id);
      const policy = request.body;
      // An admin without it would lock themselves out of the environment with this very call.
      if (policy.require_two_factor && !user.otp_secret)
        throw badRequest({ require_two_factor: SECURITY_MESSAGES.enrolFirst });
      const updated = await db
        .updateTable('environment')
        .set({ ...policy, modified_by: user.id, modified_at: new Date() })
        .where('id', '=', request.params.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return policyOf(updated);
    },
  );
};
