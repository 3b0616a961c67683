import { environmentContactSchema, idParamSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';
import { readContact } from './service';

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  // Every member may read whom to ask for help, their admins' e-mail addresses included.
  app.get(
    '/environment/:id/contact',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ id: idParamSchema }),
        tags: ['environment'],
        response: answers({ 200: environmentContactSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      return readContact(db, config, await openEnvironment(db, user, request.params.id));
    },
  );
};
