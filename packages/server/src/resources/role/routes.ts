import {
  idParamSchema,
  listQuerySchema,
  noContentSchema,
  roleCreateSchema,
  roleDetailSchema,
  rolePageSchema,
  rolePatchSchema,
  roleUsageSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import type { UserRow } from '../../db/schema';
import { answers } from '../../http-errors';
import { administeredRow, requireEnvironmentAdmin } from '../../policy/environment';
import { presentRole } from './present';
import { createRole, deleteRole, findRole, listRoles, updateRole } from './service';
import { findRoleUsage } from './usage';

const idParams = z.object({ id: idParamSchema });
const listQuery = listQuerySchema.extend({
  environment: idParamSchema,
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const deleteQuery = z.object({
  detach: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: take the role out of every place that names it and delete it, in one transaction'),
});
const tags = ['role'];

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const adminRole = async (user: UserRow, id: number) => administeredRow(db, user, await findRole(db, id));

  app.get(
    '/role',
    {
      config: { access: 'environmentAdmin' },
      schema: { querystring: listQuery, tags, response: answers({ 200: rolePageSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.query.environment);
      const { rows, pager } = await listRoles(db, request.query.environment, request.query);
      return { results: rows.map(presentRole), pager };
    },
  );

  app.get(
    '/role/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, tags, response: answers({ 200: roleDetailSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      return presentRole(await adminRole(user, request.params.id));
    },
  );

  app.get(
    '/role/:id/usage',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: idParams,
        tags,
        response: answers({ 200: roleUsageSchema }),
        description: 'Where the role is used: members, permissions, visibility rules and list options',
      },
    },
    async (request) => {
      const user = await currentUser(request);
      return findRoleUsage(db, await adminRole(user, request.params.id));
    },
  );

  app.post(
    '/role',
    {
      config: { access: 'environmentAdmin' },
      schema: { body: roleCreateSchema, tags, response: answers({ 201: roleDetailSchema }) },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentRole(await createRole(db, request.body)));
    },
  );

  app.patch(
    '/role/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, body: rolePatchSchema, tags, response: answers({ 200: roleDetailSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await adminRole(user, request.params.id);
      return presentRole(await updateRole(db, row, request.body));
    },
  );

  app.delete(
    '/role/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: idParams,
        querystring: deleteQuery,
        tags,
        response: answers({ 204: noContentSchema }),
        description: 'Deletes a role that nothing names (400 says where it is used), or with detach=true',
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await adminRole(user, request.params.id);
      await deleteRole(db, row, { detach: request.query.detach === 'true' });
      return reply.code(204).send();
    },
  );
};
