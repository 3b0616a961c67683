import {
  changePasswordSchema,
  environmentMemberPageSchema,
  forgotPasswordSchema,
  globalRolesAnswerSchema,
  globalRolesSchema,
  idParamSchema,
  loginKeyAnswerSchema,
  messageAnswerSchema,
  PASSWORD_MESSAGES,
  profilePatchSchema,
  profileSchema,
  REQUIRED_MESSAGE,
  RESET_MESSAGES,
  resetLinkSchema,
  resetPasswordSchema,
  tokenDataSchema,
  userListQuerySchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, sessionClaims } from '../../auth/current-user';
import { issueLoginKey } from '../../auth/key-login';
import { issueResetLink } from '../../auth/password-reset';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { allowResetRequest, recordLoginAttempt, refuseWhenLoginThrottled } from '../../auth/rate-limit';
import { consumeSecretToken, findSecretToken } from '../../auth/secret-tokens';
import { answers, badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';
import { canChangeGlobalRoles, canIssueLoginKey } from '../../policy/user';
import { checkPasswordPolicy } from '../security/service';
import { listMembers } from './members';
import { globalRolesOf, presentProfile } from './present';
import { updateProfile } from './profile';
import { findUserById, findUserByUsername, setGlobalRoles, setNewPassword } from './service';

const FORGOT_ANSWER = {
  message: 'If the username and e-mail address match an account, a mail is on its way.',
};
const INVALID_LINK = 'This link is invalid or has expired.';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, sessions } = app;

  app.post(
    '/user/forgot_password',
    {
      config: { access: 'public' },
      schema: { body: forgotPasswordSchema, tags: ['user'], response: answers({ 200: messageAnswerSchema }) },
    },
    async (request) => {
      const { username, email } = request.body;
      // Every request of an address counts, whether or not it names an account: this 429 depends
      // only on the caller's own requests, so it tells nothing about which accounts exist.
      if (!(await allowResetRequest(db, config, request.ip))) throw tooManyRequests(RESET_MESSAGES.tooMany);
      const user = await findUserByUsername(db, username);
      // Same answer whether or not the account exists, so the call cannot be used to find accounts.
      if (!user || user.email?.toLowerCase() !== email.toLowerCase()) return FORGOT_ANSWER;
      // A user who was sent their share of links gets no more for a while, and the same answer: a
      // refusal here would tell that the username and address belong to an account.
      const token = await issueResetLink(db, config, user.id);
      if (token === null) return FORGOT_ANSWER;
      const link = `${config.publicUrl}/reset_password/${token}`;
      const minutes = Math.round(config.resetLinkTtlSeconds / 60);
      await mailer.send({
        to: email,
        subject: 'Reset your Dossierbase password',
        text: `Hello ${user.username},\n\nFollow this link to choose a new password:\n${link}\n\nThe link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail.\n`,
      });
      return FORGOT_ANSWER;
    },
  );

  app.get(
    '/user/reset_password/:token',
    {
      config: { access: 'public' },
      schema: {
        params: z.object({ token: z.string().max(200) }),
        tags: ['user'],
        response: answers({ 200: resetLinkSchema }),
      },
    },
    async (request) => {
      const userId = await findSecretToken(db, 'password_reset', request.params.token);
      const user = userId === null ? undefined : await findUserById(db, userId);
      if (!user) throw badRequest({ token: INVALID_LINK });
      return { valid: true, username: user.username };
    },
  );

  app.post(
    '/user/reset_password',
    {
      config: { access: 'public' },
      schema: { body: resetPasswordSchema, tags: ['user'], response: answers({ 200: messageAnswerSchema }) },
    },
    async (request) => {
      const { token, password } = request.body;
      // The policy of the link's user's environments, before the link is spent.
      const owner = await findSecretToken(db, 'password_reset', token);
      if (owner !== null) await checkPasswordPolicy(db, owner, password);
      const passwordHash = await hashPassword(password);
      const userId = await consumeSecretToken(db, 'password_reset', token);
      if (userId === null) throw badRequest({ token: INVALID_LINK });
      await setNewPassword(db, userId, passwordHash);
      // A new password ends every session that the old one may have opened.
      await sessions.endAll(userId);
      return { message: 'Your password has been changed. You can sign in now.' };
    },
  );

  app.patch(
    '/user/change_password',
    {
      schema: { body: changePasswordSchema, tags: ['user'], response: answers({ 200: tokenDataSchema }) },
      // the forced change after a key login is made here
      config: { access: 'signedIn', allowDuringForcedPasswordChange: true },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const { current_password, password } = request.body;
      if (!user.force_password_update) {
        if (!current_password) throw badRequest({ current_password: REQUIRED_MESSAGE });
        // Guesses count toward the sign-in limit: a borrowed session must not be a way to try
        // passwords without it.
        await refuseWhenLoginThrottled(db, config, user.username, request.ip);
        const correct = await verifyPassword(user.password_hash, current_password);
        await recordLoginAttempt(db, user.username, request.ip, correct);
        if (!correct) throw badRequest({ current_password: PASSWORD_MESSAGES.incorrect });
      }
      await checkPasswordPolicy(db, user.id, password);
      const claims = await sessionClaims(request);
      if (!claims) throw unauthorized();
      const updated = await setNewPassword(db, user.id, await hashPassword(password));
      // Devices signed in with the old password lose their sessions and live-update connections. This
      // one, where the old password was just given, keeps its session with a renewed access token: a
      // call it sent before this answer arrived (with the cookie of before) must not answer 401, which
      // the web client takes for a signed-out session.
      app.realtime.endSessions(await sessions.endOthers(user.id, claims.sessionId));
      return sessions.renewAccess(request, reply, updated, claims.sessionId);
    },
  );

  // Members of one environment, for user pickers and names; every member may read them.
  app.get(
    '/user',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: userListQuerySchema,
        tags: ['user'],
        response: answers({ 200: environmentMemberPageSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await openEnvironment(db, user, request.query.environment);
      return listMembers(db, access, request.query);
    },
  );

  // The web client reads the profile to show the forced-change form.
  app.get(
    '/user/profile',
    {
      schema: { tags: ['user'], response: answers({ 200: profileSchema }) },
      config: { access: 'signedIn', allowDuringForcedPasswordChange: true },
    },
    async (request) => presentProfile(await currentUser(request)),
  );

  app.patch(
    '/user/profile',
    {
      config: { access: 'signedIn' },
      schema: { body: profilePatchSchema, tags: ['user'], response: answers({ 200: profileSchema }) },
    },
    async (request) => presentProfile(await updateProfile(db, await currentUser(request), request.body)),
  );

  app.post(
    '/user/:id/login_key',
    {
      config: { access: 'superAdmin' },
      schema: {
        params: z.object({ id: idParamSchema }),
        tags: ['user'],
        response: answers({ 200: loginKeyAnswerSchema }),
      },
    },
    async (request) => {
      const actor = await currentUser(request);
      if (!canIssueLoginKey(actor)) throw forbidden();
      const target = await findUserById(db, request.params.id);
      if (!target) throw notFound();
      return issueLoginKey(db, config, target);
    },
  );

  // Super and contract admin reach every environment: only super admins grant or take them.
  app.put(
    '/user/:id/roles',
    {
      config: { access: 'superAdmin' },
      schema: {
        params: z.object({ id: idParamSchema }),
        body: globalRolesSchema,
        tags: ['user'],
        response: answers({ 200: globalRolesAnswerSchema }),
      },
    },
    async (request) => {
      const actor = await currentUser(request);
      if (!canChangeGlobalRoles(actor)) throw forbidden();
      const user = await setGlobalRoles(db, request.params.id, request.body.roles);
      return { id: user.id, global_roles: globalRolesOf(user) };
    },
  );
};
