import {
  calendarAnswerSchema,
  calendarMoveSchema,
  dossierIdAnswerSchema,
  dossierIdParamSchema,
  kanbanBoardAnswerSchema,
  viewListAnswerSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openDossier } from '../content-dossier/read-model';
import { positiveId } from '../content-dossier-list/service';
import { calendarRange, kanbanBoard, kanbanColumn, moveCalendarEvent } from './service';

const tags = ['content-dossier'];

// The list call's parameters stay open (per-column filters keyed by display item id); the service
// validates every key it reads, as the list call does.
const viewQuery = z
  .object({
    defDossier: z.string().describe('entity id (required)'),
    environment: z.string().optional(),
    embedded: z.string().optional().describe('parent dossier id (linked list mode, with linkId)'),
    linkId: z.string().optional(),
  })
  .catchall(z.union([z.string(), z.array(z.string())]));

export const contentDossierViewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const indexes = { log: (message: string, error?: unknown) => app.log.error({ err: error }, message) };

  app.get(
    '/contentdossier/kanban/board',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: viewQuery.extend({
          search: z.string().max(255).optional().describe('text in the kanban search field'),
        }),
        tags,
        response: answers({ 200: kanbanBoardAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, positiveId(request.query.environment));
      return kanbanBoard(db, user, request.query as Record<string, unknown>, { indexes });
    },
  );

  app.get(
    '/contentdossier/kanban',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: viewQuery.extend({
          option: z.string().describe('list option id of the column, or none'),
          search: z.string().max(255).optional().describe('text in the kanban search field'),
        }),
        tags,
        response: answers({ 200: viewListAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, positiveId(request.query.environment));
      return kanbanColumn(db, user, request.query as Record<string, unknown>, { indexes });
    },
  );

  app.get(
    '/contentdossier/calendar',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: viewQuery.extend({
          start: z.string().describe('first day, YYYY-MM-DD'),
          end: z.string().describe('day after the last, YYYY-MM-DD'),
        }),
        tags,
        response: answers({ 200: calendarAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, positiveId(request.query.environment));
      return calendarRange(db, user, request.query as Record<string, unknown>, { indexes });
    },
  );

  app.patch(
    '/contentdossier/:id/calendar',
    {
      config: { access: 'signedIn' },
      schema: {
        params: z.object({ id: dossierIdParamSchema }),
        body: calendarMoveSchema,
        tags,
        response: answers({ 200: dossierIdAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'edit');
      await moveCalendarEvent(db, scope, dossier, request.body);
      return { id: Number(dossier.id) };
    },
  );
};
