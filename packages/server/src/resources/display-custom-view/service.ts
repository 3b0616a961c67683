import { DISPLAY_VIEWS, type displayCustomViewCreateSchema, type Pager } from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, notFound } from '../../http-errors';
import type { ConfigListScope } from '../../policy/configuration';
import { bodyEntity, escapeLike, isUniqueViolation } from '../def-dossier-def-field/shared';
import type { CustomViewRow } from './present';

export type CustomViewCreate = z.infer<typeof displayCustomViewCreateSchema>;

export const VIEW_NAME_TAKEN = 'A view with this name already exists on this entity';
export const VIEW_NAME_BUILT_IN = 'This name is taken by a built-in view';
export const viewInUse = (count: number) =>
  `This view is still used by ${count} display item${count === 1 ? '' : 's'}; delete them first`;

const BUILT_IN = new Set<string>(DISPLAY_VIEWS.map((view) => view.toLowerCase()));

export async function listCustomViews(
  db: Db,
  scope: ConfigListScope,
  query: { search?: string; limit: number; page: number },
): Promise<{ rows: CustomViewRow[]; pager: Pager }> {
  let base = db.selectFrom('display_custom_view').where('environment_id', '=', scope.environmentId);
  if (scope.defDossierId !== undefined) base = base.where('def_dossier_id', '=', scope.defDossierId);
  const search = query.search?.trim();
  if (search) base = base.where('view_name', 'ilike', `%${escapeLike(search)}%`);
  return paginate(base, (q) => q.selectAll().orderBy(sql`lower(view_name)`).orderBy('id'), {
    page: query.page,
    limit: query.limit,
  });
}

export async function findCustomView(db: Db, id: number): Promise<CustomViewRow> {
  const row = await db.selectFrom('display_custom_view').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function assertNameFree(db: Db, defDossierId: number, viewName: string, exceptId?: number) {
  if (BUILT_IN.has(viewName.toLowerCase())) throw badRequest({ viewName: VIEW_NAME_BUILT_IN });
  let query = db
    .selectFrom('display_custom_view')
    .select('id')
    .where('def_dossier_id', '=', defDossierId)
    .where('view_name', '=', viewName);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw badRequest({ viewName: VIEW_NAME_TAKEN });
}

function translateUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error, 'display_custom_view_name_key'))
    throw badRequest({ viewName: VIEW_NAME_TAKEN });
  throw error;
}

export async function createCustomView(db: Db, input: CustomViewCreate): Promise<CustomViewRow> {
  const entity = await bodyEntity(db, input.environment, input.defDossier);
  await assertNameFree(db, entity.id, input.viewName);
  try {
    return await db
      .insertInto('display_custom_view')
      .values({ environment_id: input.environment, def_dossier_id: entity.id, view_name: input.viewName })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/** Renaming a view carries its display items, positions and list blocks along to the new name. */
export async function renameCustomView(db: Db, row: CustomViewRow, viewName: string): Promise<CustomViewRow> {
  if (viewName === row.view_name) return row;
  await assertNameFree(db, row.def_dossier_id, viewName, row.id);
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('display_item')
        .set({ view: viewName })
        .where('def_dossier_id', '=', row.def_dossier_id)
        .where('view', '=', row.view_name)
        .execute();
      await trx
        .updateTable('display_position')
        .set({ view_name: viewName })
        .where('def_dossier_id', '=', row.def_dossier_id)
        .where('view_name', '=', row.view_name)
        .execute();
      // and the dossier list blocks that show it
      await trx
        .updateTable('mypage_block')
        .set({ settings: sql`jsonb_set(settings, '{view_name}', to_jsonb(${viewName}::text))` })
        .where('environment_id', '=', row.environment_id)
        .where('def_dossier_id', '=', row.def_dossier_id)
        .where(sql<boolean>`settings ->> 'view_name' = ${row.view_name}`)
        .execute();
      return trx
        .updateTable('display_custom_view')
        .set({ view_name: viewName })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    translateUniqueViolation(error);
  }
}

export async function deleteCustomView(db: Db, row: CustomViewRow): Promise<void> {
  const { n } = await db
    .selectFrom('display_item')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('def_dossier_id', '=', row.def_dossier_id)
    .where('view', '=', row.view_name)
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) throw badRequest({ viewName: viewInUse(Number(n)) });
  await db.deleteFrom('display_custom_view').where('id', '=', row.id).execute();
}
