import {
  allowedAnswerSchema,
  bulkArchiveAnswerSchema,
  dossierArchivedAnswerSchema,
  dossierIdAnswerSchema,
  dossierIdParamSchema,
  dossierIdSchema,
  dossierUpdateSchema,
  dossierWriteSchema,
  ganttPatchQuerySchema,
  ganttPatchSchema,
  idParamSchema,
  idSchema,
  massUpdateAnswerSchema,
  massUpdateSchema,
  mergeSchema,
  resultAnswerSchema,
  seriesAnswerSchema,
  seriesSchema,
  subscriptionsAnswerSchema,
  tabsAllowedAnswerSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, currentUserForEntity, currentUserIn } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openEntityScope } from '../../policy/entity';
import { openEnvironment } from '../../policy/environment';
import { itemsShownFor } from '../dossier-query/service';
import { archiveMany } from './bulk-archive';
import { logShown } from './dossier-log';
import { updateGanttDates } from './gantt';
import { marks, setMark, subscribedAmong } from './marks';
import { massUpdate } from './mass-update';
import { mergeDossiers } from './merge';
import { presentDetail } from './present';
import { credentialAllowed, detailItems, dossierContent, openDossier, tabsAllowed } from './read-model';
import { createSeries } from './series';
import { changeListValue, createDossier, deleteDossier, setArchived, updateDossier } from './service';

const tags = ['content-dossier'];
const idParams = z.object({ id: dossierIdParamSchema });
const listParams = z.object({ dossierId: dossierIdParamSchema, displayItemId: idParamSchema });
const optionIds = z.object({ values: z.array(idSchema).max(500) });
const positionQuery = z.object({ displayPosition: idParamSchema.optional() });
const detailQuery = positionQuery.extend({
  view: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("the items of this view (a standard view or the entity's custom view) instead of the page's"),
});

// customView=row_input: the dossier is created from the row entry form of an embedded list, whose
// items are the entity's row_input view (spec doc 2 section 7)
const createQuery = z.object({ customView: z.enum(['row_input']).optional() });

export const contentDossierRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.post(
    '/contentdossier',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: createQuery,
        body: dossierWriteSchema,
        tags,
        response: answers({ 201: dossierIdAnswerSchema }),
      },
    },
    async (request, reply) => {
      const { user, environmentId } = await currentUserForEntity(request, request.body.defDossier);
      const scope = await openEntityScope(db, user, request.body.defDossier, environmentId);
      const id = await createDossier(db, scope, { ...request.body, customView: request.query.customView });
      return reply.code(201).send({ id });
    },
  );

  app.put(
    '/contentdossier/massupdate',
    {
      config: { access: 'signedIn' },
      schema: { body: massUpdateSchema, tags, response: answers({ 200: massUpdateAnswerSchema }) },
    },
    async (request) => {
      const { user, environmentId } = await currentUserForEntity(request, request.body.defDossier);
      const scope = await openEntityScope(db, user, request.body.defDossier, environmentId);
      return { updated: await massUpdate(db, scope, request.body) };
    },
  );

  app.post(
    '/contentdossier/series',
    {
      config: { access: 'signedIn' },
      schema: { body: seriesSchema, tags, response: answers({ 201: seriesAnswerSchema }) },
    },
    async (request, reply) => {
      const { user, environmentId } = await currentUserForEntity(request, request.body.defDossier);
      const scope = await openEntityScope(db, user, request.body.defDossier, environmentId);
      const ids = await createSeries(db, scope, request.body);
      return reply.code(201).send({ ids });
    },
  );

  app.post(
    '/contentdossier/merge',
    {
      config: { access: 'signedIn' },
      schema: { body: mergeSchema, tags, response: answers({ 201: dossierIdAnswerSchema }) },
    },
    async (request, reply) => {
      const user = await currentUserIn(request, request.body.environment);
      const access = await openEnvironment(db, user, request.body.environment);
      const id = await mergeDossiers(db, user, access.environment.id, request.body);
      return reply.code(201).send({ id });
    },
  );

  app.get(
    '/contentdossier/:id',
    { config: { access: 'signedIn' }, schema: { params: idParams, querystring: detailQuery, tags } },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'show');
      const items = await itemsShownFor(
        db,
        scope.access,
        dossier,
        await detailItems(db, scope, request.query.displayPosition, request.query.view),
      );
      // the page's first read (without a position) is the dossier being opened
      if (request.query.displayPosition === undefined)
        await logShown(db, scope.access, { id: Number(dossier.id), entityId: dossier.def_dossier_id });
      const content = await dossierContent(db, scope.access, dossier, items);
      return presentDetail(
        db,
        scope.access,
        dossier,
        items,
        content,
        await marks(db, dossier.environment_id, user.id, Number(dossier.id)),
      );
    },
  );

  app.put(
    '/contentdossier/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        params: idParams,
        querystring: positionQuery,
        body: dossierUpdateSchema,
        tags,
        response: answers({ 200: dossierIdAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'edit');
      await updateDossier(db, scope, dossier, {
        ...request.body,
        displayPosition: request.query.displayPosition,
      });
      return { id: Number(dossier.id) };
    },
  );

  // The gantt's move or resize of a project or task (spec doc 3 section 7).
  app.patch(
    '/contentdossier/:id',
    {
      config: { access: 'signedIn' },
      schema: {
        params: idParams,
        querystring: ganttPatchQuerySchema,
        body: ganttPatchSchema,
        tags,
        response: answers({ 200: dossierIdAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'edit');
      await updateGanttDates(db, scope, dossier, request.body.values);
      return { id: Number(dossier.id) };
    },
  );

  for (const [path, archived] of [
    ['archive', true],
    ['dearchive', false],
  ] as const) {
    // the bulk bar's archive of a selection: one transaction for all of them
    app.post(
      `/contentdossier/${path}`,
      {
        config: { access: 'signedIn' },
        schema: {
          body: z.object({ environment: idSchema, ids: z.array(dossierIdSchema).min(1).max(1000) }),
          tags,
          response: answers({ 200: bulkArchiveAnswerSchema }),
        },
      },
      async (request) => {
        const user = await currentUserIn(request, request.body.environment);
        const access = await openEnvironment(db, user, request.body.environment);
        return archiveMany(db, user, access.environment.id, request.body.ids, archived);
      },
    );
    // POST, never GET: a link or an image elsewhere must not change a dossier (spec's GET, issue 12).
    app.post(
      `/contentdossier/:id/${path}`,
      {
        config: { access: 'signedIn' },
        schema: { params: idParams, tags, response: answers({ 200: dossierArchivedAnswerSchema }) },
      },
      async (request) => {
        const user = await currentUser(request);
        const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'show');
        await setArchived(db, scope, dossier, archived);
        return { id: Number(dossier.id), archived };
      },
    );
  }

  app.delete(
    '/contentdossier/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, tags, response: answers({ 200: dossierIdAnswerSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.id, 'show');
      await deleteDossier(db, scope, dossier);
      return { id: Number(dossier.id) };
    },
  );

  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/contentdossier/:id/favorite',
      config: { access: 'signedIn' },
      schema: { params: idParams, tags, response: answers({ 200: resultAnswerSchema }) },
      handler: async (request) => {
        const user = await currentUser(request);
        const { dossier } = await openDossier(db, user, request.params.id, 'show');
        await setMark(db, 'favourite', dossier, user.id, method === 'POST');
        return { result: method === 'POST' };
      },
    });
  }

  app.post(
    '/contentdossier/:id/subscription/:flag',
    {
      config: { access: 'signedIn' },
      schema: {
        params: idParams.extend({ flag: z.enum(['0', '1']) }),
        tags,
        response: answers({ 200: resultAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier } = await openDossier(db, user, request.params.id, 'show');
      const on = request.params.flag === '1';
      await setMark(db, 'dossier_subscription', dossier, user.id, on);
      return { result: on };
    },
  );

  app.post(
    '/contentdossier/subscriptions',
    {
      config: { access: 'signedIn' },
      schema: {
        body: z.object({ environment: idSchema, ids: z.array(dossierIdSchema).max(1000) }),
        tags,
        response: answers({ 200: subscriptionsAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUserIn(request, request.body.environment);
      const access = await openEnvironment(db, user, request.body.environment);
      return subscribedAmong(db, access.environment.id, user.id, request.body.ids);
    },
  );

  app.post(
    '/contentlist/:dossierId/:displayItemId/set',
    {
      config: { access: 'signedIn' },
      schema: { params: listParams, body: optionIds, tags, response: answers({ 200: resultAnswerSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.dossierId, 'edit');
      await changeListValue(db, scope, dossier, request.params.displayItemId, { set: request.body.values });
      return { result: true };
    },
  );

  app.post(
    '/contentlist/:dossierId/:displayItemId/add',
    {
      config: { access: 'signedIn' },
      schema: { params: listParams, body: optionIds, tags, response: answers({ 200: resultAnswerSchema }) },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.dossierId, 'edit');
      await changeListValue(db, scope, dossier, request.params.displayItemId, { add: request.body.values });
      return { result: true };
    },
  );

  app.delete(
    '/contentlist/:dossierId/:displayItemId/remove/:optionId',
    {
      config: { access: 'signedIn' },
      schema: {
        params: listParams.extend({ optionId: idParamSchema }),
        tags,
        response: answers({ 200: resultAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { dossier, ...scope } = await openDossier(db, user, request.params.dossierId, 'edit');
      await changeListValue(db, scope, dossier, request.params.displayItemId, {
        remove: request.params.optionId,
      });
      return { result: true };
    },
  );

  app.post(
    '/displayposition/credentials',
    {
      config: { access: 'signedIn' },
      schema: {
        body: z.object({ defDossier: idSchema, ids: z.array(dossierIdSchema).max(1000) }),
        tags,
        response: answers({ 200: tabsAllowedAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openEntityScope(db, user, request.body.defDossier);
      return tabsAllowed(db, scope, request.body.ids);
    },
  );

  app.get(
    '/contentdossier/is-credential-allowed',
    {
      config: { access: 'signedIn' },
      schema: {
        querystring: z.object({
          defDossier: idParamSchema,
          credential: z.string().min(1).max(50).default('edit'),
          dossier: dossierIdParamSchema.optional(),
        }),
        tags,
        response: answers({ 200: allowedAnswerSchema }),
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openEntityScope(db, user, request.query.defDossier);
      return { allowed: await credentialAllowed(db, scope, request.query.credential, request.query.dossier) };
    },
  );
};
