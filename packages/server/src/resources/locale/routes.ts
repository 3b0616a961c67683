import { localePageSchema, makePager } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';

export const localeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/locale',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['locale'], response: answers({ 200: localePageSchema }) },
    },
    async (request) => {
      await currentUser(request);
      const results = await app.db
        .selectFrom('locale')
        .select(['id', 'code', 'name'])
        .orderBy('id')
        .execute();
      return { results, pager: makePager(0, Math.max(results.length, 1), results.length) };
    },
  );
};
