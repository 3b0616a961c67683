import {
  ENVIRONMENT_MODULES,
  environmentCreateSchema,
  environmentListQuerySchema,
  environmentLocaleCreateSchema,
  environmentLocaleParamsSchema,
  environmentModuleSchema,
  environmentPageSchema,
  environmentPatchSchema,
  environmentSchema,
  idParamSchema,
  localeSchema,
  localesAnswerSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers, bytesAnswer, forbidden, notFound } from '../../http-errors';
import { openEnvironment, requireEnvironmentAdmin } from '../../policy/environment';
import { canCreateEnvironment } from '../../policy/user';
import { presentEnvironment, presentEnvironments } from './present';
import {
  addEnvironmentLocale,
  createEnvironment,
  listEnvironments,
  removeEnvironmentLocale,
} from './service';
import { setEnvironmentModule, updateEnvironment } from './settings';

const idParams = z.object({ id: idParamSchema });

export const environmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/environment',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: environmentListQuerySchema,
        tags: ['environment'],
        response: answers({ 200: environmentPageSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { rows, pager } = await listEnvironments(db, user, request.query);
      return { results: await presentEnvironments(db, user, rows), pager };
    },
  );

  app.get(
    '/environment/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags: ['environment'], response: answers({ 200: environmentSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const { environment } = await openEnvironment(db, user, request.params.id);
      return presentEnvironment(db, user, environment);
    },
  );

  app.patch(
    '/environment/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: idParams,
        body: environmentPatchSchema,
        tags: ['environment'],
        response: answers({ 200: environmentSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await updateEnvironment(db, user, request.params.id, request.body);
      return presentEnvironment(db, user, row);
    },
  );

  app.put(
    '/environment/:id/module/:name',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: z.object({ id: idParamSchema, name: z.enum(ENVIRONMENT_MODULES) }),
        body: environmentModuleSchema,
        tags: ['environment'],
        response: answers({ 200: environmentSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { id, name } = request.params;
      const row = await setEnvironmentModule(db, user, id, name, request.body);
      return presentEnvironment(db, user, row);
    },
  );

  app.get(
    '/environment/:id/logo',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags: ['environment'], response: answers({ 200: bytesAnswer }) },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const { environment } = await openEnvironment(db, user, request.params.id);
      const { logo } = await db
        .selectFrom('environment')
        .select('logo')
        .where('id', '=', environment.id)
        .executeTakeFirstOrThrow();
      if (!logo || !environment.logo_mime) throw notFound('No logo');
      return reply.type(environment.logo_mime).header('Cache-Control', 'private, max-age=86400').send(logo);
    },
  );

  app.post(
    '/environment',
    {
      config: { access: 'environmentCreator' },
      schema: {
        body: environmentCreateSchema,
        tags: ['environment'],
        response: answers({ 201: environmentSchema }),
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      if (!canCreateEnvironment(user)) throw forbidden();
      const environment = await createEnvironment(db, user, request.body);
      return reply.code(201).send(await presentEnvironment(db, user, environment));
    },
  );

  app.get(
    '/environment-locale',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: z.object({ environment: idParamSchema }),
        tags: ['environment'],
        response: answers({ 200: localesAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { environment } = await openEnvironment(db, user, request.query.environment);
      const [presented] = await presentEnvironments(db, user, [environment]);
      return { results: presented.locales };
    },
  );

  app.post(
    '/environment-locale',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        body: environmentLocaleCreateSchema,
        tags: ['environment'],
        response: answers({ 201: localeSchema }),
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      const locale = await addEnvironmentLocale(db, request.body.environment, request.body.code);
      return reply.code(201).send(locale);
    },
  );

  app.delete(
    '/environment/:id/locale/:code',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        params: environmentLocaleParamsSchema,
        tags: ['environment'],
        response: answers({ 204: noContentSchema }),
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.params.id);
      await removeEnvironmentLocale(db, request.params.id, request.params.code);
      return reply.code(204).send();
    },
  );
};
