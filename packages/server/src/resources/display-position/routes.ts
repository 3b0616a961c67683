import {
  DISPLAY_POSITION_TYPES,
  displayPositionCreateSchema,
  displayPositionPageSchema,
  displayPositionPatchSchema,
  displayPositionSchema,
  noContentSchema,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { openConfigList } from '../../policy/configuration';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { memberEntityAccess } from '../../policy/member-layout';
import { configListQuerySchema, idParams } from '../def-dossier-def-field/shared';
import { presentPosition } from './present';
import { createPosition, deletePosition, findPosition, listPositions, patchPosition } from './service';

const tags = ['display-position'];
const listQuery = configListQuerySchema.extend({ type: z.enum(DISPLAY_POSITION_TYPES).optional() });

export const displayPositionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/displayposition',
    {
      config: { access: 'signedIn' },
      schema: { response: answers({ 200: displayPositionPageSchema }), querystring: listQuery, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const member = await memberEntityAccess(db, user, request.query.defDossier, request.query.environment);
      if (member && request.query.defDossier !== undefined) {
        // Members see the entity's positions except the hidden one.
        const scope = {
          access: member,
          environmentId: member.environment.id,
          defDossierId: request.query.defDossier,
        };
        const { rows, pager } = await listPositions(db, scope, request.query);
        const shown = rows.filter((row) => row.type !== 'hide');
        return { results: shown.map(presentPosition), pager: { ...pager, items: shown.length } };
      }
      const scope = await openConfigList(db, user, request.query);
      const { rows, pager } = await listPositions(db, scope, request.query);
      return { results: rows.map(presentPosition), pager };
    },
  );

  app.get(
    '/displayposition/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: displayPositionSchema }), params: idParams, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findPosition(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentPosition(row);
    },
  );

  app.post(
    '/displayposition',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 201: displayPositionSchema }), body: displayPositionCreateSchema, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentPosition(await createPosition(db, request.body)));
    },
  );

  app.patch(
    '/displayposition/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: displayPositionSchema }),
        params: idParams,
        body: displayPositionPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findPosition(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentPosition(await patchPosition(db, row, request.body));
    },
  );

  app.delete(
    '/displayposition/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 204: noContentSchema }), params: idParams, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findPosition(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deletePosition(db, row);
      return reply.code(204).send();
    },
  );
};
