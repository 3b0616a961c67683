import {
  idParamSchema,
  memberDetailSchema,
  memberInviteAnswerSchema,
  memberInviteSchema,
  memberListQuerySchema,
  memberPageSchema,
  memberPatchSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserIn } from '../../auth/current-user';
import type { UserRow } from '../../db/schema';
import { answers } from '../../http-errors';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { canChangeGlobalRoles } from '../../policy/user';
import { inviteMember, resendInvitation } from './invitation';
import { type MemberRow, presentMember, presentMemberDetail } from './present';
import { changeMember, isLastAdmin, listEnvironmentMembers, removeMember, requireMember } from './service';

// The members of an environment, for its admins (/user and /user/{id}). Every call names the
// environment in its path: another environment's ids answer 404, as unknown ones do.

const environmentParams = z.object({ id: idParamSchema });
const memberParams = z.object({ id: idParamSchema, userId: idParamSchema });
const tags = ['member'];

export const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mailer, realtime } = app;

  /** The signed-in admin of the environment (404 for strangers, 403 for its ordinary members). */
  const administer = async (request: FastifyRequest, environmentId: number) =>
    requireEnvironmentAdmin(db, await currentUserIn(request, environmentId), environmentId);

  const detail = async (environmentId: number, member: MemberRow, actor: UserRow) =>
    presentMemberDetail(member, await isLastAdmin(db, environmentId, member), {
      canChangeGlobalRoles: canChangeGlobalRoles(actor),
    });

  app.get(
    '/environment/:id/member',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: environmentParams,
        querystring: memberListQuerySchema,
        tags,
        response: answers({ 200: memberPageSchema }),
      },
    },
    async (request) => {
      const { environment } = await administer(request, request.params.id);
      const { rows, pager } = await listEnvironmentMembers(db, environment.id, request.query);
      return { results: rows.map(presentMember), pager };
    },
  );

  app.get(
    '/environment/:id/member/:userId',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: memberParams, tags, response: answers({ 200: memberDetailSchema }) },
    },
    async (request) => {
      const { environment, user } = await administer(request, request.params.id);
      return detail(environment.id, await requireMember(db, environment.id, request.params.userId), user);
    },
  );

  app.post(
    '/environment/:id/member',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: environmentParams,
        body: memberInviteSchema,
        tags,
        response: answers({ 201: memberInviteAnswerSchema }),
      },
    },
    async (request, reply) => {
      const { environment, user } = await administer(request, request.params.id);
      const invited = await inviteMember(
        { db, config, mailer, log: request.log },
        user,
        environment,
        request.body,
      );
      return reply
        .code(201)
        .send({ member: presentMember(invited.member), created: invited.created, mailed: invited.mailed });
    },
  );

  app.patch(
    '/environment/:id/member/:userId',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: memberParams,
        body: memberPatchSchema,
        tags,
        response: answers({ 200: memberDetailSchema }),
      },
    },
    async (request) => {
      const { environment, user } = await administer(request, request.params.id);
      const { member, lostAccess } = await changeMember(
        db,
        user,
        environment,
        request.params.userId,
        request.body,
      );
      if (lostAccess) realtime.removeFromEnvironment(member.id, environment.id);
      return detail(environment.id, member, user);
    },
  );

  app.delete(
    '/environment/:id/member/:userId',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: memberParams, tags, response: answers({ 204: noContentSchema }) },
    },
    async (request, reply) => {
      const { environment } = await administer(request, request.params.id);
      await removeMember(db, environment.id, request.params.userId);
      realtime.removeFromEnvironment(request.params.userId, environment.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/environment/:id/member/:userId/invitation',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: memberParams, tags, response: answers({ 204: noContentSchema }) },
    },
    async (request, reply) => {
      const { environment, user } = await administer(request, request.params.id);
      await resendInvitation(
        { db, config, mailer, log: request.log },
        user,
        environment,
        request.params.userId,
      );
      return reply.code(204).send();
    },
  );
};
