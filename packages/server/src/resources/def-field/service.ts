import {
  type DefFieldUsage,
  type defFieldCreateSchema,
  type defFieldPatchSchema,
  ENTITY_MESSAGES,
  type Pager,
  parseFieldSettings,
  validateFieldSettings,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest } from '../../http-errors';
import { DUPLICATE_UUID, isUniqueViolation } from '../def-dossier/service';
import { escapeLike } from '../environment/service';
import { type DefFieldRow, defFieldUsage } from './present';

export async function listDefFields(
  db: Db,
  environmentId: number,
  query: { limit: number; page: number; search?: string; type?: string[]; uuid?: string },
): Promise<{ rows: DefFieldRow[]; pager: Pager }> {
  const { limit, page } = query;
  let select = db.selectFrom('def_field').where('environment_id', '=', environmentId);
  if (query.search?.trim()) select = select.where('name', 'ilike', `%${escapeLike(query.search.trim())}%`);
  if (query.type?.length) select = select.where('type', 'in', query.type);
  if (query.uuid) select = select.where('uuid', '=', query.uuid);
  return paginate(select, (q) => q.selectAll().orderBy('rank').orderBy(sql`lower(name)`).orderBy('id'), {
    page: page,
    limit: limit,
  });
}

export const findDefField = (db: Db, id: number) =>
  db.selectFrom('def_field').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The type's settings with its defaults filled in (core validateFieldSettings); 400 with errors keyed
 * 'settings.<key>' otherwise.
 */
export function normaliseSettings(type: string, settings: unknown): Record<string, unknown> {
  const checked = validateFieldSettings(type, settings, 'base');
  if (!checked.ok) throw badRequest(checked.errors);
  return checked.settings;
}

/** A list's default option must be one of its own options. */
async function checkDefaultOption(db: Db, fieldId: number | null, settings: Record<string, unknown>) {
  const option = settings.default_list_option;
  if (option === null || option === undefined || option === '') return;
  const found =
    fieldId === null
      ? undefined
      : await db
          .selectFrom('def_field_list')
          .select('id')
          .where('def_field_id', '=', fieldId)
          .where('id', '=', Number(option))
          .executeTakeFirst();
  if (!found) throw badRequest({ 'settings.default_list_option': `Unknown list option ${option}` });
}

export async function createDefField(
  db: Db,
  input: z.output<typeof defFieldCreateSchema>,
): Promise<DefFieldRow> {
  const settings = normaliseSettings(input.type, input.settings);
  await checkDefaultOption(db, null, settings);
  try {
    return await db
      .insertInto('def_field')
      .values({
        environment_id: input.environment,
        ...(input.uuid ? { uuid: input.uuid } : {}),
        name: input.name,
        type: input.type,
        settings,
        ...(input.rank !== undefined ? { rank: input.rank } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest({ uuid: DUPLICATE_UUID });
    throw error;
  }
}

const isPlaced = (usage: readonly DefFieldUsage[]) => usage.some((u) => u.placed);

export async function updateDefField(
  db: Db,
  row: DefFieldRow,
  input: z.output<typeof defFieldPatchSchema>,
): Promise<DefFieldRow> {
  const type = input.type ?? row.type;
  const typeChanged = type !== row.type;
  if (typeChanged) {
    const usage = (await defFieldUsage(db, [row.id])).get(row.id) ?? [];
    if (isPlaced(usage)) throw badRequest({ type: ENTITY_MESSAGES.placedFieldType });
  }
  let settings: Record<string, unknown> | undefined;
  if (input.settings !== undefined) settings = normaliseSettings(type, input.settings);
  // Keep what the new type understands, key by key; the rest starts from its defaults.
  else if (typeChanged) settings = parseFieldSettings(type, row.settings);
  if (settings) await checkDefaultOption(db, row.id, settings);
  return db
    .updateTable('def_field')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(typeChanged ? { type } : {}),
      ...(settings ? { settings } : {}),
      ...(input.rank !== undefined ? { rank: input.rank } : {}),
      modified_at: new Date(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Refused while a display item places it or a data field still uses it; its list options go with it. */
export async function deleteDefField(db: Db, row: DefFieldRow): Promise<void> {
  const usage = (await defFieldUsage(db, [row.id])).get(row.id) ?? [];
  if (isPlaced(usage)) throw badRequest({ id: ENTITY_MESSAGES.placedFieldDelete });
  if (usage.length) {
    const names = usage.map((u) => `${u.def_dossier_name}.${u.def_dossier_def_field_name}`).join(', ');
    throw badRequest({ id: `Used by ${names}` });
  }
  try {
    await db.deleteFrom('def_field').where('id', '=', row.id).execute();
  } catch (error) {
    // A data field was added meanwhile (its foreign key has no cascade).
    if ((error as { code?: string })?.code === '23503') throw badRequest({ id: 'This field is in use' });
    throw error;
  }
}
