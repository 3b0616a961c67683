import {
  type defFieldListCreateSchema,
  type defFieldListPatchSchema,
  ENTITY_MESSAGES,
  type ListOption,
  type Pager,
  valueRefsOf,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest } from '../../http-errors';
import { sanitiseTranslationTexts as sanitiseTranslations } from '../../sanitise/information-text';
import { checkRoleIds, DUPLICATE_UUID, isUniqueViolation, type RankChange } from '../def-dossier/service';
import type { DefFieldRow, ListOptionRow } from '../def-field/present';
import { escapeLike } from '../environment/service';

export const LIST_OPTION_MESSAGES = {
  unknownField: 'Unknown base field',
  notAList: 'Only list and tree fields have options',
} as const;

/** The base field the options belong to: a list or tree field of the environment. */
export async function listFieldOf(db: Db, environmentId: number, defFieldId: number): Promise<DefFieldRow> {
  const field = await db
    .selectFrom('def_field')
    .selectAll()
    .where('id', '=', defFieldId)
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  if (!field) throw badRequest({ defField: LIST_OPTION_MESSAGES.unknownField });
  if (valueRefsOf(field.type) !== 'options') throw badRequest({ defField: LIST_OPTION_MESSAGES.notAList });
  return field;
}

export async function listListOptions(
  db: Db,
  defFieldId: number,
  { limit, page, search }: { limit: number; page: number; search?: string },
): Promise<{ rows: ListOptionRow[]; pager: Pager }> {
  let query = db.selectFrom('def_field_list').where('def_field_id', '=', defFieldId);
  const term = search?.trim();
  if (term) {
    query = query.where(
      sql<boolean>`exists (select 1 from jsonb_array_elements(def_field_list.translations) as t(value)
        where t.value->>'text' ilike ${`%${escapeLike(term)}%`})`,
    );
  }
  return paginate(query, (q) => q.selectAll().orderBy('rank').orderBy('id'), { page: page, limit: limit });
}

export const findListOption = (db: Db, id: number) =>
  db.selectFrom('def_field_list').selectAll().where('id', '=', id).executeTakeFirst();

const roleIdsOf = (settings: ListOption['settings']) => (Array.isArray(settings.roles) ? settings.roles : []);

/** Only one default option per field. */
const clearOtherDefaults = (db: Db, defFieldId: number, exceptId: number) =>
  db
    .updateTable('def_field_list')
    .set({ is_default: false })
    .where('def_field_id', '=', defFieldId)
    .where('id', '<>', exceptId)
    .where('is_default', '=', true)
    .execute();

export async function createListOption(
  db: Db,
  input: z.output<typeof defFieldListCreateSchema>,
): Promise<ListOptionRow> {
  const field = await listFieldOf(db, input.environment, input.defField);
  await checkRoleIds(db, input.environment, roleIdsOf(input.settings), 'settings.roles');
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('def_field_list')
        .values({
          environment_id: input.environment,
          def_field_id: field.id,
          ...(input.uuid ? { uuid: input.uuid } : {}),
          color: input.color ?? null,
          rank: input.rank,
          is_default: input.default,
          translations: sanitiseTranslations(input.translations),
          settings: input.settings,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (row.is_default) await clearOtherDefaults(trx, field.id, row.id);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest({ uuid: DUPLICATE_UUID });
    throw error;
  }
}

export async function updateListOption(
  db: Db,
  row: ListOptionRow,
  input: z.output<typeof defFieldListPatchSchema>,
): Promise<ListOptionRow> {
  if (input.defField !== undefined && input.defField !== row.def_field_id) {
    throw badRequest({ defField: ENTITY_MESSAGES.listFieldFixed });
  }
  const settings = input.settings ? { ...row.settings, ...input.settings } : undefined;
  if (input.settings) await checkRoleIds(db, row.environment_id, roleIdsOf(input.settings), 'settings.roles');
  const changes = {
    ...(input.color !== undefined ? { color: input.color } : {}),
    ...(input.rank !== undefined ? { rank: input.rank } : {}),
    ...(input.default !== undefined ? { is_default: input.default } : {}),
    ...(input.translations !== undefined ? { translations: sanitiseTranslations(input.translations) } : {}),
    ...(settings ? { settings } : {}),
  };
  // Only the (unchanged) base field given: nothing to write (an empty SET is a syntax error).
  if (Object.keys(changes).length === 0) return row;
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('def_field_list')
      .set(changes)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.default) await clearOtherDefaults(trx, row.def_field_id, row.id);
    return updated;
  });
}

export async function rankListOptions(db: Db, ranks: readonly RankChange[]): Promise<ListOptionRow[]> {
  return db.transaction().execute(async (trx) => {
    for (const { id, rank } of ranks) {
      await trx.updateTable('def_field_list').set({ rank }).where('id', '=', id).execute();
    }
    return trx
      .selectFrom('def_field_list')
      .selectAll()
      .where(
        'id',
        'in',
        ranks.map((r) => r.id),
      )
      .orderBy('def_field_id')
      .orderBy('rank')
      .orderBy('id')
      .execute();
  });
}

/** Deletes the option; a field whose default_list_option it was loses that default. */
export async function deleteListOption(db: Db, row: ListOptionRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('def_field_list').where('id', '=', row.id).execute();
    await trx
      .updateTable('def_field')
      .set({ settings: sql`jsonb_set(settings, '{default_list_option}', 'null'::jsonb)` })
      .where('id', '=', row.def_field_id)
      .where(sql<boolean>`settings->>'default_list_option' = ${String(row.id)}`)
      .execute();
  });
}
