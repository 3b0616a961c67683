import {
  defDossierLinkBacklinkSchema,
  defDossierLinkCreateSchema,
  defDossierLinkPageSchema,
  defDossierLinkPatchSchema,
  defDossierLinkSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openConfigList } from '../../policy/configuration';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { configListQuerySchema, idParams, optionalId } from '../def-dossier-def-field/shared';
import { presentLink } from './present';
import { createLink, deleteLink, findLink, listLinks, patchLink, tieBacklink } from './service';

const tags = ['def-dossier-link'];
const listQuery = configListQuerySchema.extend({
  child_def_dossier_id: optionalId,
  back_link_id: optionalId,
});

export const defDossierLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/defdossierlink',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: defDossierLinkPageSchema }), querystring: listQuery, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openConfigList(db, user, request.query);
      const { rows, pager } = await listLinks(db, scope, request.query);
      return { results: rows.map(presentLink), pager };
    },
  );

  app.get(
    '/defdossierlink/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: defDossierLinkSchema }), params: idParams, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findLink(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentLink(row);
    },
  );

  app.post(
    '/defdossierlink',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 201: defDossierLinkSchema }), body: defDossierLinkCreateSchema, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentLink(await createLink(db, request.body)));
    },
  );

  app.patch(
    '/defdossierlink/backlink',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: defDossierLinkSchema }), body: defDossierLinkBacklinkSchema, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return presentLink(await tieBacklink(db, request.body));
    },
  );

  app.patch(
    '/defdossierlink/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defDossierLinkSchema }),
        params: idParams,
        body: defDossierLinkPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findLink(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentLink(await patchLink(db, row, request.body));
    },
  );

  app.delete(
    '/defdossierlink/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 204: noContentSchema }), params: idParams, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findLink(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deleteLink(db, row);
      return reply.code(204).send();
    },
  );
};
