import {
  defDossierDefFieldCreateSchema,
  defDossierDefFieldUpdateSchema,
  FIELD_TYPE_NAMES,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { openConfigList } from '../../policy/configuration';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { presentDataField, presentDataFields } from './present';
import { createDataField, deleteDataField, findDataField, listDataFields, updateDataField } from './service';
import { configListQuerySchema, idParams } from './shared';

const tags = ['def-dossier-def-field'];
const listQuery = configListQuerySchema.extend({
  /** Type of the base field. */
  type: z.enum(FIELD_TYPE_NAMES).optional(),
});

export const defDossierDefFieldRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/defdossierdeffield',
    { config: { access: 'environmentAdmin' }, schema: { querystring: listQuery, tags } },
    async (request) => {
      const user = await currentUser(request);
      const scope = await openConfigList(db, user, request.query);
      const { rows, pager } = await listDataFields(db, scope, request.query);
      return { results: await presentDataFields(db, rows), pager };
    },
  );

  app.get(
    '/defdossierdeffield/:id',
    { config: { access: 'environmentAdmin' }, schema: { params: idParams, tags } },
    async (request) => {
      const user = await currentUser(request);
      const row = await findDataField(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentDataField(db, row);
    },
  );

  app.post(
    '/defdossierdeffield',
    { config: { access: 'environmentAdmin' }, schema: { body: defDossierDefFieldCreateSchema, tags } },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      const row = await createDataField(db, request.body);
      return reply.code(201).send(await presentDataField(db, row));
    },
  );

  // PUT is the client's call; PATCH is what template apply sends. Both change only what is given.
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/defdossierdeffield/:id',
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, body: defDossierDefFieldUpdateSchema, tags },
      handler: async (request) => {
        const user = await currentUser(request);
        const row = await findDataField(db, request.params.id);
        await requireEnvironmentAdmin(db, user, row.environment_id);
        return presentDataField(db, await updateDataField(db, row, request.body));
      },
    });
  }

  app.delete(
    '/defdossierdeffield/:id',
    { config: { access: 'environmentAdmin' }, schema: { params: idParams, tags } },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findDataField(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deleteDataField(db, row);
      return reply.code(204).send();
    },
  );
};
