import {
  idParamSchema,
  listQuerySchema,
  noContentSchema,
  roleCreateSchema,
  roleDetailSchema,
  rolePageSchema,
  rolePatchSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import type { UserRow } from '../../db/schema';
import { answers } from '../../http-errors';
import { administeredRow, requireEnvironmentAdmin } from '../../policy/environment';
import { presentRole } from './present';
import { createRole, deleteRole, findRole, listRoles, updateRole } from './service';

const idParams = z.object({ id: idParamSchema });
const listQuery = listQuerySchema.extend({
  environment: idParamSchema,
  limit: z.coerce.number().int().min(1).max(200).default(50),
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
      schema: { params: idParams, tags, response: answers({ 204: noContentSchema }) },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await deleteRole(db, await adminRole(user, request.params.id));
      return reply.code(204).send();
    },
  );
};
