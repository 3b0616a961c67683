import {
  activeUsersSchema,
  blockCreateSchema,
  blockDataAnswerSchema,
  blockDataQuerySchema,
  blockListQuerySchema,
  blockPageSchema,
  blockPatchSchema,
  blockSchema,
  idParamSchema,
  newDossierStatisticsSchema,
  noContentSchema,
  onlineUsersSchema,
  positionAnswerSchema,
  positionQuerySchema,
  positionSaveSchema,
  statisticsBodySchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers, forbidden } from '../../http-errors';
import { isEnvironmentAdmin, openEnvironment, requireEnvironmentAdmin } from '../../policy/environment';
import { roomsOf } from '../../realtime/rooms';
import { idParams } from '../def-dossier-def-field/shared';
import {
  createBlock,
  findBlock,
  listBlocks,
  presentBlocks,
  readPositions,
  savePositions,
  shownBlock,
  updateBlock,
} from './blocks';
import { blockData } from './data';
import { activeUsers, newDossierStatistics, onlineUsers } from './statistics';

const tags = ['dashboard'];
const yes = (v: string | undefined) => v === 'true' || v === '1';
// an id beyond the database's integers is refused here, as every id parameter is
const environmentParams = z.object({ environmentId: idParamSchema });

// Dashboard blocks, their data, the grid positions and the environment statistics. Members read the
// blocks of their roles; admins of the environment write blocks and the default view.
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/mypageblock',
    {
      config: { access: 'signedIn' },
      schema: { querystring: blockListQuerySchema, response: answers({ 200: blockPageSchema }), tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await openEnvironment(db, user, request.query.environment);
      const { rows, pager } = await listBlocks(db, access, request.query);
      const asDefault =
        yes(request.query.default) || (await readPositions(db, access.environment.id, user.id)).length === 0;
      const positions = await readPositions(db, access.environment.id, asDefault ? null : user.id);
      return { results: await presentBlocks(db, rows), pager, positions };
    },
  );

  app.get(
    '/mypageblock/:id',
    {
      config: { access: 'signedIn' },
      schema: { params: idParams, response: answers({ 200: blockSchema }), tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findBlock(db, request.params.id);
      const access = await openEnvironment(db, user, row.environment_id);
      const [block] = await presentBlocks(db, [shownBlock(access, row)]);
      return block;
    },
  );

  app.get(
    '/mypageblock/:id/data',
    {
      config: { access: 'signedIn' },
      schema: {
        params: idParams,
        querystring: blockDataQuerySchema,
        response: answers({ 200: blockDataAnswerSchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findBlock(db, request.params.id);
      const access = await openEnvironment(db, user, row.environment_id);
      return blockData({ db, access, user, block: shownBlock(access, row), params: request.query });
    },
  );

  app.post(
    '/mypageblock',
    {
      config: { access: 'environmentAdmin' },
      schema: { body: blockCreateSchema, response: answers({ 201: blockSchema }), tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const access = await requireEnvironmentAdmin(db, user, request.body.environment);
      const [block] = await presentBlocks(db, [await createBlock(db, access, request.body)]);
      return reply.code(201).send(block);
    },
  );

  app.patch(
    '/mypageblock/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, body: blockPatchSchema, response: answers({ 200: blockSchema }), tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findBlock(db, request.params.id);
      const access = await requireEnvironmentAdmin(db, user, row.environment_id);
      const [block] = await presentBlocks(db, [await updateBlock(db, access, row, request.body)]);
      return block;
    },
  );

  app.delete(
    '/mypageblock/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, response: answers({ 204: noContentSchema }), tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findBlock(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await db
        .deleteFrom('mypage_block')
        .where('id', '=', row.id)
        .where('environment_id', '=', row.environment_id)
        .execute();
      return reply.code(204).send();
    },
  );

  app.get(
    '/mypage/:environmentId/position',
    {
      config: { access: 'signedIn' },
      schema: {
        params: environmentParams,
        querystring: positionQuerySchema,
        response: answers({ 200: positionAnswerSchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await openEnvironment(db, user, request.params.environmentId);
      const own = yes(request.query.default) ? [] : await readPositions(db, access.environment.id, user.id);
      return { positions: own.length ? own : await readPositions(db, access.environment.id, null) };
    },
  );

  app.patch(
    '/mypage/:environmentId/position',
    {
      config: { access: 'signedIn' },
      schema: {
        params: environmentParams,
        body: positionSaveSchema,
        response: answers({ 200: positionAnswerSchema }),
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const access = await openEnvironment(db, user, request.params.environmentId);
      if (request.body.default && !isEnvironmentAdmin(access)) throw forbidden();
      const positions = await savePositions(
        db,
        access,
        request.body.default ? null : user.id,
        request.body.blocks,
      );
      return { positions };
    },
  );

  const statistics = (
    path: string,
    answer: z.ZodType,
    compute: (access: Awaited<ReturnType<typeof requireEnvironmentAdmin>>) => Promise<unknown>,
  ) =>
    app.post(
      `/environmentadmin/statistics/${path}`,
      {
        config: { access: 'environmentAdmin' },
        schema: { body: statisticsBodySchema, response: answers({ 200: answer }), tags },
      },
      async (request) => {
        const user = await currentUser(request);
        return compute(await requireEnvironmentAdmin(db, user, request.body.environment));
      },
    );
  statistics('contentdossier', newDossierStatisticsSchema, (access) => newDossierStatistics(db, access));
  statistics('user_current', onlineUsersSchema, (access) => onlineUsers(db, access, roomsOf(db)));
  statistics('users_most_active', activeUsersSchema, async (access) => ({
    rows: await activeUsers(db, access.environment.id),
  }));
};
