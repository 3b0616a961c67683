import { type ActiveSubscriptionBody, activeSubscriptionSchema } from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/subscription/active',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['subscription'], response: answers({ 200: activeSubscriptionSchema }) },
    },
    async (request): Promise<ActiveSubscriptionBody> => {
      const user = await currentUser(request);
      const latest = await app.db
        .selectFrom('subscription')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('starts_at', '<=', new Date())
        .orderBy('expires_at', 'desc')
        .executeTakeFirst();
      if (!latest) return { subscription: null, expired: false };
      const expired = latest.expires_at.getTime() <= Date.now();
      return {
        subscription: expired
          ? null
          : {
              id: latest.id,
              max_environments: latest.max_environments,
              max_users: latest.max_users,
              starts_at: latest.starts_at.toISOString(),
              expires_at: latest.expires_at.toISOString(),
            },
        expired,
      };
    },
  );
};
