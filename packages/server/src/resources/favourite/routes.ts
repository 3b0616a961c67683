import { favouritePageSchema, favouritesQuerySchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { listFavourites } from './service';

// Marking and unmarking are POST and DELETE /api/contentdossier/{id}/favorite (content-dossier/routes.ts).
export const favouriteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/contentdossier/favorites',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: favouritesQuerySchema,
        tags: ['content-dossier'],
        response: answers({ 200: favouritePageSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, request.query.environment);
      return listFavourites(app.db, user, request.query);
    },
  );
};
