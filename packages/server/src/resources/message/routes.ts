import {
  dossierIdParamSchema,
  messageEnvironmentQuerySchema,
  messageIdAnswerSchema,
  messageListQuerySchema,
  messagePageSchema,
  messageReadAnswerSchema,
  messageSchema,
  messageSendSchema,
  unreadCountSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';
import { listMessages, markRead, readMessage, sendMessage, unreadCount } from './service';

const tags = ['message'];
const idParams = z.object({ id: dossierIdParamSchema });

// Reading a message never marks it read: GET changes nothing (the spec's GET /message/{id} is
// POST /message/{id}/read here).
export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.post(
    '/message',
    {
      config: { access: 'signedIn' },
      schema: { body: messageSendSchema, tags, response: answers({ 201: messageIdAnswerSchema }) },
    },
    async (request, reply) => {
      const user = await currentUserIn(request, request.body.environment);
      const id = await sendMessage(db, app.realtime, user, request.body);
      return reply.code(201).send({ id });
    },
  );

  app.get(
    '/message',
    {
      config: { access: 'signedIn' },
      schema: { querystring: messageListQuerySchema, tags, response: answers({ 200: messagePageSchema }) },
    },
    async (request) => {
      const user = await currentUserIn(request, request.query.environment);
      return listMessages(db, user, request.query);
    },
  );

  app.get(
    '/message/unread/count',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: messageEnvironmentQuerySchema,
        tags,
        response: answers({ 200: unreadCountSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, request.query.environment);
      const access = await openEnvironment(db, user, request.query.environment);
      return { total: await unreadCount(db, access.environment.id, user.id) };
    },
  );

  app.get(
    '/message/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags, response: answers({ 200: messageSchema }) },
    },
    async (request) => readMessage(db, await currentUser(request), request.params.id),
  );

  app.post(
    '/message/:id/read',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags, response: answers({ 200: messageReadAnswerSchema }) },
    },
    async (request) => markRead(db, app.realtime, await currentUser(request), request.params.id),
  );
};
