import {
  DEF_DOSSIER_TYPES,
  defDossierCreateSchema,
  defDossierPageSchema,
  defDossierPatchSchema,
  defDossierSchema,
  defDossiersAnswerSchema,
  defFieldListRankSchema,
  type EntityPermissionsAnswer,
  entityAnswerSchema,
  entityPermissionsAnswerSchema,
  idParamSchema,
  listQuerySchema,
  noContentSchema,
  PERMISSION_ACTIONS,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import { answers } from '../../http-errors';
import { entityAbilities } from '../../policy/abilities';
import { openEntityScope } from '../../policy/entity';
import { administeredRow, requireEnvironmentAdmin } from '../../policy/environment';
import { MEMBER_ENTITY_SETTINGS, openEntityLayout } from '../../policy/member-layout';
import { presentDefDossier } from './present';
import {
  createDefDossier,
  deleteDefDossier,
  environmentOfRanks,
  findDefDossier,
  listDefDossiers,
  rankDefDossiers,
  updateDefDossier,
} from './service';

const idParams = z.object({ id: idParamSchema });
const listQuery = listQuerySchema.extend({
  environment: idParamSchema,
  type: z.enum(DEF_DOSSIER_TYPES).optional(),
});
const tags = ['defdossier'];

export const defDossierRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  /** The entity, for an admin of its environment; 404 when it does not exist. */
  const adminEntity = async (user: Parameters<typeof requireEnvironmentAdmin>[1], id: number) =>
    administeredRow(db, user, await findDefDossier(db, id));

  app.get(
    '/defdossier',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 200: defDossierPageSchema }), querystring: listQuery, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.query.environment);
      const { rows, pager } = await listDefDossiers(db, request.query.environment, request.query);
      return { results: rows.map(presentDefDossier), pager };
    },
  );

  app.get(
    '/defdossier/:id',
    {
      config: { access: 'signedIn' },
      schema: { response: answers({ 200: entityAnswerSchema }), params: idParams, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const { scope, member } = await openEntityLayout(db, user, request.params.id);
      const entity = presentDefDossier(scope.entity);
      const abilities = entityAbilities(scope);
      if (!member) return { ...entity, abilities };
      const settings = Object.fromEntries(
        MEMBER_ENTITY_SETTINGS.flatMap((key) =>
          key in entity.settings ? [[key, entity.settings[key]]] : [],
        ),
      );
      return { ...entity, visibility_roles: [], settings, abilities };
    },
  );

  // Open to every member: the dossier screens show or hide their actions by it.
  app.get(
    '/defdossier/:id/permissions',
    {
      config: { access: 'signedIn' },
      schema: {
        response: answers({ 200: entityPermissionsAnswerSchema }),
        params: idParams,
        tags,
        description: "The signed-in user's actions on the entity",
      },
    },
    async (request): Promise<EntityPermissionsAnswer> => {
      const user = await currentUser(request);
      const scope = await openEntityScope(db, user, request.params.id);
      return {
        def_dossier_id: scope.entity.id,
        actions: PERMISSION_ACTIONS.filter((action) => scope.permissions.has(action)),
        abilities: entityAbilities(scope),
      };
    },
  );

  app.post(
    '/defdossier',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 201: defDossierSchema }), body: defDossierCreateSchema, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      return reply.code(201).send(presentDefDossier(await createDefDossier(db, request.body)));
    },
  );

  app.patch(
    '/defdossier/rank',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defDossiersAnswerSchema }),
        body: defFieldListRankSchema,
        tags,
        description: 'New ranks for entities of one environment',
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const { ranks } = request.body;
      await environmentOfRanks(db, 'def_dossier', ranks, 'Unknown entity', (environmentId) =>
        requireEnvironmentAdmin(db, user, environmentId),
      );
      return { results: (await rankDefDossiers(db, ranks)).map(presentDefDossier) };
    },
  );

  app.patch(
    '/defdossier/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: {
        response: answers({ 200: defDossierSchema }),
        params: idParams,
        body: defDossierPatchSchema,
        tags,
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await adminEntity(user, request.params.id);
      return presentDefDossier(await updateDefDossier(db, row, request.body));
    },
  );

  app.delete(
    '/defdossier/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { response: answers({ 204: noContentSchema }), params: idParams, tags },
    },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await adminEntity(user, request.params.id);
      await deleteDefDossier(db, row);
      return reply.code(204).send();
    },
  );
};
