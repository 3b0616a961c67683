import { dossierListLimitSchema, idParamSchema, quickSearchAnswerSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, withSignInCarried } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { listAnswerJson } from './answer-json';
import { listDossiers, positiveId, quickSearch } from './service';

const tags = ['content-dossier'];

// Per-column filters are keyed by display item id ({id}, {id}_type, {id}_end, {id}_min, {id}_max,
// {id}_aggregate), so the query string stays open; the service validates every key it reads.
const listQuery = z
  .object({
    defDossier: z.string().describe('entity id (required)'),
    environment: z.string().optional(),
    limit: dossierListLimitSchema.optional().describe('page size, 1 to 500 (default 50)'),
    page: z.string().optional().describe('0-based'),
    archived: z.string().optional().describe('none (default), both or only'),
    summary: z.string().optional(),
    embedded: z.string().optional().describe('parent dossier id (linked list mode, with linkId)'),
    linkId: z.string().optional(),
    view: z
      .string()
      .max(50)
      .optional()
      .describe('timeline, gantt (Gantt) or hourregistration: adds the items of the view settings'),
    'sort[]': z.union([z.string(), z.array(z.string())]).optional(),
    'sortOrder[]': z.union([z.string(), z.array(z.string())]).optional(),
  })
  .catchall(z.union([z.string(), z.array(z.string())]));

const searchQuery = z.object({
  environment: idParamSchema,
  search: z.string().max(255).default(''),
  limit: z.coerce
    .number()
    .int()
    .catch(10)
    .transform((n) => (n >= 1 && n <= 50 ? n : 10)),
});

export const contentDossierListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const indexes = {
    log: (message: string, error?: unknown) => app.log.error({ err: error }, message),
  };

  app.get(
    '/contentdossier',
    { config: { access: 'signedIn' }, schema: { querystring: listQuery, tags } },
    async (request, reply) => {
      const body = await withSignInCarried(request, positiveId(request.query.environment), (user, signIn) =>
        listDossiers(db, user, request.query as Record<string, unknown>, { indexes, signIn }),
      );
      return reply.type('application/json; charset=utf-8').send(listAnswerJson(body));
    },
  );

  app.get(
    '/contentdossier/search',
    {
      config: { access: 'signedIn' },
      schema: { querystring: searchQuery, tags, response: answers({ 200: quickSearchAnswerSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const { environment, search, limit } = request.query;
      return quickSearch(db, user, environment, search, limit);
    },
  );
};
