import {
  displayItemCreateSchema,
  displayItemPatchSchema,
  displayItemTranslationSchema,
  idSchema,
  makePager,
  REQUIRED_MESSAGE,
} from '@dossierbase/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/current-user';
import type { Db } from '../../db/database';
import { openConfigList } from '../../policy/configuration';
import { visibleItems } from '../../policy/display-item';
import { requireEnvironmentAdmin } from '../../policy/environment';
import { memberEntityAccess } from '../../policy/member-layout';
import { scheduleFieldIndexSync } from '../../query/field-indexes';
import { presentItems } from '../content-dossier/present';
import { findDataField } from '../def-dossier-def-field/service';
import { configListQuerySchema, idParams, optionalId } from '../def-dossier-def-field/shared';
import { presentDisplayItem, presentDisplayItems, withChildAbilities } from './present';
import {
  autoCreateDisplayItems,
  createDisplayItem,
  deleteDisplayItem,
  findDisplayItem,
  listDisplayItems,
  patchDisplayItem,
} from './service';

const tags = ['display-item'];
const listQuery = configListQuerySchema.extend({
  view: z.string().max(255).optional(),
  displayPosition: optionalId,
});

/** POST /api/displayitem/auto: display items for a new data field (spec doc 3, data field editor). */
export const displayItemAutoSchema = z.object({
  defDossierDefField: idSchema,
  displayPosition: idSchema.nullable().optional(),
  view: z.string().trim().min(1, REQUIRED_MESSAGE).max(255).default('show/edit'),
  translations: z.array(displayItemTranslationSchema).default([]),
});

/** The views the entity's display items use. */
async function entityViews(db: Db, defDossierId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('display_item')
    .select('view')
    .distinct()
    .where('def_dossier_id', '=', defDossierId)
    .execute();
  return rows.map((row) => row.view);
}

export const displayItemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  // Searched, sorted and listed fields get their expression indexes in the background.
  const syncLog = (message: string, error?: unknown) => app.log.error({ err: error }, message);

  app.get(
    '/displayitem',
    { config: { access: 'signedIn' }, schema: { querystring: listQuery, tags } },
    async (request) => {
      const user = await currentUser(request);
      const member = await memberEntityAccess(db, user, request.query.defDossier, request.query.environment);
      if (member && request.query.defDossier !== undefined) {
        // Members get the items their roles may see, with the list options they may see.
        const views = request.query.view
          ? [request.query.view]
          : await entityViews(db, request.query.defDossier);
        const position = request.query.displayPosition;
        const visible = (await visibleItems(db, member, request.query.defDossier, views)).filter(
          (v) => position === undefined || v.item.display_position_id === position,
        );
        const results = await presentItems(db, member, visible);
        return { results, pager: makePager(0, Math.max(results.length, 1), results.length) };
      }
      const scope = await openConfigList(db, user, request.query);
      const { rows, pager } = await listDisplayItems(db, scope, request.query);
      return {
        results: await withChildAbilities(db, scope.access, await presentDisplayItems(db, rows)),
        pager,
      };
    },
  );

  app.get(
    '/displayitem/:id',
    { config: { access: 'environmentAdmin' }, schema: { params: idParams, tags } },
    async (request) => {
      const user = await currentUser(request);
      const row = await findDisplayItem(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      return presentDisplayItem(db, row);
    },
  );

  app.post(
    '/displayitem',
    { config: { access: 'environmentAdmin' }, schema: { body: displayItemCreateSchema, tags } },
    async (request, reply) => {
      const user = await currentUser(request);
      await requireEnvironmentAdmin(db, user, request.body.environment);
      const row = await createDisplayItem(db, request.body);
      scheduleFieldIndexSync(db, row.def_dossier_id, { log: syncLog });
      return reply.code(201).send(await presentDisplayItem(db, row));
    },
  );

  app.post(
    '/displayitem/auto',
    { config: { access: 'environmentAdmin' }, schema: { body: displayItemAutoSchema, tags } },
    async (request, reply) => {
      const user = await currentUser(request);
      const field = await findDataField(db, request.body.defDossierDefField);
      await requireEnvironmentAdmin(db, user, field.environment_id);
      const rows = await autoCreateDisplayItems(db, field, request.body);
      scheduleFieldIndexSync(db, field.def_dossier_id, { log: syncLog });
      return reply.code(201).send({ results: await presentDisplayItems(db, rows) });
    },
  );

  app.patch(
    '/displayitem/:id',
    {
      config: { access: 'environmentAdmin' },
      schema: { params: idParams, body: displayItemPatchSchema, tags },
    },
    async (request) => {
      const user = await currentUser(request);
      const row = await findDisplayItem(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      const patched = await patchDisplayItem(db, row, request.body);
      scheduleFieldIndexSync(db, row.def_dossier_id, { log: syncLog });
      return presentDisplayItem(db, patched);
    },
  );

  app.delete(
    '/displayitem/:id',
    { config: { access: 'environmentAdmin' }, schema: { params: idParams, tags } },
    async (request, reply) => {
      const user = await currentUser(request);
      const row = await findDisplayItem(db, request.params.id);
      await requireEnvironmentAdmin(db, user, row.environment_id);
      await deleteDisplayItem(db, row);
      scheduleFieldIndexSync(db, row.def_dossier_id, { log: syncLog });
      return reply.code(204).send();
    },
  );
};
