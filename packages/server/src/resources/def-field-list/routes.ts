import {
  defFieldListCreateSchema,
  defFieldListPatchSchema,
  defFieldListRankSchema,
  idParamSchema,
  listOptionPageSchema,
  listOptionSchema,
  listOptionsAnswerSchema,
  listQuerySchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import type { UserRow } from '../../db/schema';
import { answers } from '../../http-errors';
import { administeredRow, requireEnvironmentAdmin } from '../../policy/environment';
import { environmentOfRanks } from '../def-dossier/service';
import { findDefField } from '../def-field/service';
import { presentListOption } from './present';
import {
  createListOption,
  deleteListOption,
  findListOption,
  listListOptions,
  rankListOptions,
  updateListOption,
} from './service';

const idParams = z.object({ id: idParamSchema });
const listQuery = listQuerySchema.extend({ defField: idParamSchema });
const tags = ['deffieldlist'];

export const defFieldListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  const adminOption = async (user: UserRow, id: number) =>
    administeredRow(db, user, await findListOption(db, id));

  app.get(
    '/deffieldlist',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: listOptionPageSchema }),
        querystring: listQuery,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const field = await administeredRow(db, user, await findDefField(db, request.query.defField));
      const { rows, pager } = await listListOptions(db, field.id, request.query);
      return { results: rows.map(presentListOption), pager };
    },
  );

  app.get(
    '/deffieldlist/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: listOptionSchema }),
        params: idParams,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      return presentListOption(await adminOption(user, request.params.id));
    },
  );

  app.post(
    '/deffieldlist',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 201: listOptionSchema }),
        body: defFieldListCreateSchema,
        tags,
      },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentListOption(await createListOption(db, request.body)));
    },
  );

  app.patch(
    '/deffieldlist',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: listOptionsAnswerSchema }),
        body: defFieldListRankSchema,
        tags,
        description: 'New ranks for options of one environment',
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { ranks } = request.body;
      await environmentOfRanks(db, 'def_field_list', ranks, 'Unknown list option', (environmentId) =>
        requireEnvironmentAdmin(db, user, environmentId),
      );
      return { results: (await rankListOptions(db, ranks)).map(presentListOption) };
    },
  );

  app.patch(
    '/deffieldlist/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: listOptionSchema }),
        params: idParams,
        body: defFieldListPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await adminOption(user, request.params.id);
      return presentListOption(await updateListOption(db, row, request.body));
    },
  );

  app.delete(
    '/deffieldlist/:id',
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
      await deleteListOption(db, await adminOption(user, request.params.id));
      return reply.code(204).send();
    },
  );
};
