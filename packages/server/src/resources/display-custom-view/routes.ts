import {
  displayCustomViewCreateSchema,
  displayCustomViewPageSchema,
  displayCustomViewPatchSchema,
  displayCustomViewSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openConfigList } from '../../policy/configuration';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { configListQuerySchema, idParams } from '../def-dossier-def-field/shared';
import { presentCustomView } from './present';
import {
  createCustomView,
  deleteCustomView,
  findCustomView,
  listCustomViews,
  renameCustomView,
} from './service';

const tags = ['display-custom-view'];
const listQuery = configListQuerySchema.omit({ uuid: true });

export const displayCustomViewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/displaycustomview',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: displayCustomViewPageSchema }), querystring: listQuery, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openConfigList(db, user, request.query);
      const { rows, pager } = await listCustomViews(db, scope, request.query);
      return { results: rows.map(presentCustomView), pager };
    },
  );

  app.get(
    '/displaycustomview/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: displayCustomViewSchema }), params: idParams, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findCustomView(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentCustomView(row);
    },
  );

  app.post(
    '/displaycustomview',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 201: displayCustomViewSchema }),
        body: displayCustomViewCreateSchema,
        tags,
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentCustomView(await createCustomView(db, request.body)));
    },
  );

  app.patch(
    '/displaycustomview/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: displayCustomViewSchema }),
        params: idParams,
        body: displayCustomViewPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findCustomView(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentCustomView(await renameCustomView(db, row, request.body.viewName));
    },
  );

  app.delete(
    '/displaycustomview/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 204: noContentSchema }), params: idParams, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findCustomView(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deleteCustomView(db, row);
      return reply.code(204).send();
    },
  );
};
