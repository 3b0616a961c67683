import {
  environmentTextParamsSchema,
  environmentTextPutSchema,
  environmentTextSchema,
  environmentTextsAnswerSchema,
  environmentTextsQuerySchema,
  idParamSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openEnvironment, requireEnvironmentAdmin } from '../../policy/environment';
import { deleteEnvironmentText, listEnvironmentTexts, saveEnvironmentText } from './service';

const tags = ['environment'];

/** An environment's own wording of interface texts: read by its members, written by its admins. */
export const environmentTextRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/environment/:id/text',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ id: idParamSchema }),
        querystring: environmentTextsQuerySchema,
        tags,
        response: answers({ 200: environmentTextsAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { environment } = await openEnvironment(db, user, request.params.id);
      return { results: await listEnvironmentTexts(db, environment.id, request.query.locale) };
    },
  );

  app.put(
    '/environment/:id/text/:locale/:key',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: environmentTextParamsSchema,
        body: environmentTextPutSchema,
        tags,
        response: answers({ 200: environmentTextSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { id, locale, key } = request.params;
      await requireEnvironmentAdmin(db, user, id);
      return saveEnvironmentText(db, {
        environmentId: id,
        locale,
        key,
        value: request.body.value,
        userId: user.id,
      });
    },
  );

  app.delete(
    '/environment/:id/text/:locale/:key',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: environmentTextParamsSchema, tags, response: answers({ 204: noContentSchema }) },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const { id, locale, key } = request.params;
      await requireEnvironmentAdmin(db, user, id);
      await deleteEnvironmentText(db, id, locale, key);
      return reply.code(204).send();
    },
  );
};
