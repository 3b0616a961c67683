import {
  defFieldCreateSchema,
  defFieldPageSchema,
  defFieldPatchSchema,
  defFieldSchema,
  FIELD_TYPE_NAMES,
  idParamSchema,
  listQuerySchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import type { UserRow } from '../../db/schema';
import { answers } from '../../http-errors';
import { administeredRow, requireEnvironmentAdmin } from '../../policy/environment';
import { presentDefField, presentDefFields } from './present';
import { createDefField, deleteDefField, findDefField, listDefFields, updateDefField } from './service';

const idParams = z.object({ id: idParamSchema });
const fieldType = z.enum(FIELD_TYPE_NAMES, { error: 'Unknown field type' });
const listQuery = listQuerySchema.extend({
  environment: idParamSchema,
  /** One type, several comma-separated (list,tree) or the parameter repeated. */
  type: z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).filter(Boolean),
    )
    .pipe(z.array(fieldType))
    .optional(),
  uuid: z.uuid().optional(),
});
const tags = ['deffield'];

export const defFieldRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const adminField = async (user: UserRow, id: number) =>
    administeredRow(db, user, await findDefField(db, id));

  app.get(
    '/deffield',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defFieldPageSchema }),
        querystring: listQuery,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.query.environment);
      const { rows, pager } = await listDefFields(db, request.query.environment, request.query);
      return { results: await presentDefFields(db, rows), pager };
    },
  );

  app.get(
    '/deffield/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defFieldSchema }),
        params: idParams,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      return presentDefField(db, await adminField(user, request.params.id));
    },
  );

  app.post(
    '/deffield',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 201: defFieldSchema }),
        body: defFieldCreateSchema,
        tags,
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(await presentDefField(db, await createDefField(db, request.body)));
    },
  );

  app.patch(
    '/deffield/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defFieldSchema }),
        params: idParams,
        body: defFieldPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await adminField(user, request.params.id);
      return presentDefField(db, await updateDefField(db, row, request.body));
    },
  );

  app.delete(
    '/deffield/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 204: noContentSchema }),
        params: idParams,
        tags,
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await deleteDefField(db, await adminField(user, request.params.id));
      return reply.code(204).send();
    },
  );
};
