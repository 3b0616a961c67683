import { activityAnswerSchema, activityQuerySchema, idParamSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { readActivity } from './service';

export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/environment/:id/activity',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ id: idParamSchema }),
        querystring: activityQuerySchema.omit({ environment: true }),
        tags: ['environment'],
        response: answers({ 200: activityAnswerSchema }),
      },
    },
    async (request) => {
      const environment = request.params.id;
      const user = await currentUserIn(request, environment);
      return readActivity(app.db, user, { environment, days: request.query.days });
    },
  );
};
