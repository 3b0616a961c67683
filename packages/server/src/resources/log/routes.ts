import { logPageSchema, logQuerySchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { readLog } from './service';

export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/log',
    {
      config: { access: 'signedIn' },
      schema: { querystring: logQuerySchema, tags: ['log'], response: answers({ 200: logPageSchema }) },
    },
    async (request) => {
      const user = await currentUserIn(request, request.query.environment);
      return readLog(app.db, user, request.query);
    },
  );
};
