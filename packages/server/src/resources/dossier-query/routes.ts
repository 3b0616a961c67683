import {
  dossierQueryCountAnswerSchema,
  dossierQueryCountSchema,
  dossierQueryCreateSchema,
  dossierQueryListQuerySchema,
  dossierQueryPageSchema,
  dossierQueryPatchSchema,
  dossierQuerySchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { entityInEnvironment } from '../../policy/entity';
import { openEnvironment, requireEnvironmentAdmin } from '../../policy/environment';
import { idParams } from '../def-dossier-def-field/shared';
import {
  countMatching,
  createQuery,
  deleteQuery,
  findQuery,
  listQueries,
  presentQuery,
  updateQuery,
} from './service';

const tags = ['dossier-query'];

// Saved queries. Members read them (menus and lists name them); admins of the environment write them.
export const dossierQueryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/dossierquery',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: dossierQueryListQuerySchema,
        response: answers({ 200: dossierQueryPageSchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await openEnvironment(db, user, request.query.environment);
      if (request.query.defDossier !== undefined)
        await entityInEnvironment(db, access, request.query.defDossier);
      const { rows, pager } = await listQueries(db, access.environment.id, request.query);
      return { results: await Promise.all(rows.map((row) => presentQuery(db, row))), pager };
    },
  );

  app.get(
    '/dossierquery/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, response: answers({ 200: dossierQuerySchema }), tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findQuery(db, request.params.id);
      await openEnvironment(db, user, row.environment_id);
      return presentQuery(db, row);
    },
  );

  app.post(
    '/dossierquery',
    {
      config: { access: 'environmentAdmin' },
      schema: { body: dossierQueryCreateSchema, response: answers({ 201: dossierQuerySchema }), tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const access = await requireEnvironmentAdmin(db, user, request.body.environment);
      await entityInEnvironment(db, access, request.body.defDossier);
      const row = await createQuery(db, access, user, request.body);
      return reply.code(201).send(await presentQuery(db, row));
    },
  );

  app.post(
    '/dossierquery/count',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        body: dossierQueryCountSchema,
        response: answers({ 200: dossierQueryCountAnswerSchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await requireEnvironmentAdmin(db, user, request.body.environment);
      await entityInEnvironment(db, access, request.body.defDossier);
      return { items: await countMatching(db, access, user, request.body.defDossier, request.body.data) };
    },
  );

  app.patch(
    '/dossierquery/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: idParams,
        body: dossierQueryPatchSchema,
        response: answers({ 200: dossierQuerySchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findQuery(db, request.params.id);
      const access = await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentQuery(db, await updateQuery(db, access, user, row, request.body));
    },
  );

  app.delete(
    '/dossierquery/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, response: answers({ 204: noContentSchema }), tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findQuery(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deleteQuery(db, row);
      return reply.code(204).send();
    },
  );
};
