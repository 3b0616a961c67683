import {
  type ActiveSubscriptionBody,
  activeSubscriptionSchema,
  idParamSchema,
  orderCreateSchema,
  orderListQuerySchema,
  orderPageSchema,
  orderSchema,
  subscriptionOverviewSchema,
} from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers, forbidden } from '../../http-errors';
import { holdsSubscriptions } from '../../policy/user';
import { cancelOrder, createOrder, getOrder, listOrders, subscriptionOverview } from './service';

const tags = ['subscription'];
const idParams = z.object({ id: idParamSchema });

/** The caller, who holds subscriptions (a contract admin); anyone else is refused. */
async function holder(request: FastifyRequest) {
  const user = await currentUser(request);
  if (!holdsSubscriptions(user)) throw forbidden();
  return user;
}

export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/subscription/active',
    {
      config: { access: 'signedIn' },
      schema: { tags, response: answers({ 200: activeSubscriptionSchema }) },
    },
    async (request): Promise<ActiveSubscriptionBody> => {
      const user = await currentUser(request);
      const latest = await db
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

  // The holder's own subscriptions and orders: no call names another's, which answer 404.
  app.get(
    '/subscription',
    {
      config: { access: 'environmentCreator' },
      schema: { tags, response: answers({ 200: subscriptionOverviewSchema }) },
    },
    async (request) => subscriptionOverview(db, (await holder(request)).id),
  );

  app.get(
    '/order',
    {
      config: { access: 'environmentCreator' },
      schema: { querystring: orderListQuerySchema, tags, response: answers({ 200: orderPageSchema }) },
    },
    async (request) => listOrders(db, (await holder(request)).id, request.query),
  );

  app.get(
    '/order/:id',
    {
      config: { access: 'environmentCreator' },
      schema: { params: idParams, tags, response: answers({ 200: orderSchema }) },
    },
    async (request) => getOrder(db, (await holder(request)).id, request.params.id),
  );

  app.post(
    '/order',
    {
      config: { access: 'environmentCreator' },
      schema: { body: orderCreateSchema, tags, response: answers({ 201: orderSchema }) },
    },
    async (request, reply) => {
      const user = await holder(request);
      return reply.code(201).send(await createOrder(db, user.id, request.body));
    },
  );

  app.post(
    '/order/:id/cancel',
    {
      config: { access: 'environmentCreator' },
      schema: { params: idParams, tags, response: answers({ 200: orderSchema }) },
    },
    async (request) => cancelOrder(db, (await holder(request)).id, request.params.id),
  );
};
