import {
  changePasswordSchema,
  forgotPasswordSchema,
  profilePatchSchema,
  REQUIRED_MESSAGE,
  resetPasswordSchema,
  userListQuerySchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { consumeSecretToken, createSecretToken, findSecretToken } from '../../auth/secret-tokens';
import { badRequest, forbidden, notFound } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';
import { canIssueLoginKey } from '../../policy/user';
import { listMembers } from './members';
import { presentProfile } from './present';
import { findUserById, findUserByUsername } from './service';

const FORGOT_ANSWER = {
  message: 'If the username and e-mail address match an account, a mail is on its way.',
};
const INVALID_LINK = 'This link is invalid or has expired.';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, sessions } = app;

  app.post(
    '/user/forgot_password',
    { schema: { body: forgotPasswordSchema, tags: ['user'] } },
    async (request) => {
      const { username, email } = request.body;
      const user = await findUserByUsername(db, username);
      // Same answer whether or not the account exists, so the call cannot be used to find accounts.
      if (!user || user.email?.toLowerCase() !== email.toLowerCase()) return FORGOT_ANSWER;
      const token = await createSecretToken(db, 'password_reset', user.id, config.resetLinkTtlSeconds);
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
    { schema: { params: z.object({ token: z.string().max(200) }), tags: ['user'] } },
    async (request) => {
      const userId = await findSecretToken(db, 'password_reset', request.params.token);
      const user = userId === null ? undefined : await findUserById(db, userId);
      if (!user) throw badRequest({ token: INVALID_LINK });
      return { valid: true, username: user.username };
    },
  );

  app.post(
    '/user/reset_password',
    { schema: { body: resetPasswordSchema, tags: ['user'] } },
    async (request) => {
      const { token, password } = request.body;
      const passwordHash = await hashPassword(password);
      const userId = await consumeSecretToken(db, 'password_reset', token);
      if (userId === null) throw badRequest({ token: INVALID_LINK });
      await db
        .updateTable('app_user')
        .set({ password_hash: passwordHash, force_password_update: false, modified_at: new Date() })
        .where('id', '=', userId)
        .execute();
      // A new password ends every session that the old one may have opened.
      await sessions.endAll(userId);
      return { message: 'Your password has been changed. You can sign in now.' };
    },
  );

  app.patch(
    '/user/change_password',
    { schema: { body: changePasswordSchema, tags: ['user'] } },
    async (request, reply) => {
      const user = await currentUser(request);
      const { current_password, password } = request.body;
      if (!user.force_password_update) {
        if (!current_password) throw badRequest({ current_password: REQUIRED_MESSAGE });
        if (!(await verifyPassword(user.password_hash, current_password))) {
          throw badRequest({ current_password: 'Incorrect password' });
        }
      }
      const updated = await db
        .updateTable('app_user')
        .set({
          password_hash: await hashPassword(password),
          force_password_update: false,
          modified_at: new Date(),
        })
        .where('id', '=', user.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Devices signed in with the old password lose their sessions; this one gets a fresh one.
      await sessions.endAll(user.id);
      return sessions.start(request, reply, updated);
    },
  );

  // Members of one environment, for user pickers and names; every member may read them.
  app.get('/user', { schema: { querystring: userListQuerySchema, tags: ['user'] } }, async (request) => {
    const user = await currentUser(request);
    const access = await openEnvironment(db, user, request.query.environment);
    return listMembers(db, access, request.query);
  });

  app.get('/user/profile', { schema: { tags: ['user'] } }, async (request) =>
    presentProfile(await currentUser(request)),
  );

  app.patch('/user/profile', { schema: { body: profilePatchSchema, tags: ['user'] } }, async (request) => {
    const user = await currentUser(request);
    const { private_settings, ...fields } = request.body;
    const updated = await db
      .updateTable('app_user')
      .set({
        ...fields,
        private_settings: private_settings
          ? { ...user.private_settings, ...private_settings }
          : user.private_settings,
        modified_at: new Date(),
      })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentProfile(updated);
  });

  app.post(
    '/user/:id/login_key',
    { schema: { params: z.object({ id: z.coerce.number().int().positive() }), tags: ['user'] } },
    async (request) => {
      const actor = await currentUser(request);
      if (!canIssueLoginKey(actor)) throw forbidden();
      const target = await findUserById(db, request.params.id);
      if (!target) throw notFound();
      const key = await createSecretToken(db, 'login_key', target.id, config.loginKeyTtlSeconds);
      const query = new URLSearchParams({ username: target.username, key });
      return { key, url: `${config.publicUrl}/login?${query}` };
    },
  );
};
