import { isDeepStrictEqual } from 'node:util';
import {
  type defDossierDefFieldCreateSchema,
  type defDossierDefFieldUpdateSchema,
  ENTITY_MESSAGES,
  type Pager,
  sanitiseFieldName,
  validateFieldSettings,
  valueRefsOf,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest, notFound } from '../../http-errors';
import type { ConfigListScope } from '../../policy/configuration';
import { isRestricted, type RoleRule } from '../../policy/field-visibility';
import { type SummaryEffect, withSummaryUpdate } from '../content-dossier/summary-refresh';
import { checkRoleIds } from '../def-dossier/service';
import { placedMessage, placementsOf } from '../display-item/placements';
import type { DataFieldRow } from './present';
import {
  assertNotLocked,
  bodyEntity,
  escapeLike,
  isUniqueViolation,
  NOT_IN_ENVIRONMENT,
  UUID_TAKEN,
} from './shared';

export type DataFieldCreate = z.infer<typeof defDossierDefFieldCreateSchema>;
export type DataFieldUpdate = z.infer<typeof defDossierDefFieldUpdateSchema>;

export const NAME_TAKEN = 'A data field with this name already exists on this entity';

export async function listDataFields(
  db: Db,
  scope: ConfigListScope,
  query: { uuid?: string; type?: string; search?: string; limit: number; page: number },
): Promise<{ rows: DataFieldRow[]; pager: Pager }> {
  let base = db.selectFrom('def_dossier_def_field as f').where('f.environment_id', '=', scope.environmentId);
  if (scope.defDossierId !== undefined) base = base.where('f.def_dossier_id', '=', scope.defDossierId);
  if (query.uuid) base = base.where('f.uuid', '=', query.uuid);
  if (query.type) {
    const type = query.type;
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('def_field')
          .select('def_field.id')
          .whereRef('def_field.id', '=', 'f.def_field_id')
          .where('def_field.type', '=', type),
      ),
    );
  }
  const search = query.search?.trim();
  if (search) base = base.where('f.name', 'ilike', `%${escapeLike(search)}%`);
  return paginate(base, (q) => q.selectAll('f').orderBy(sql`lower(f.name)`).orderBy('f.id'), {
    page: query.page,
    limit: query.limit,
  });
}

export async function findDataField(db: Db, id: number): Promise<DataFieldRow> {
  const row = await db
    .selectFrom('def_dossier_def_field')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function baseFieldOf(db: Db, environmentId: number, defFieldId: number) {
  const field = await db
    .selectFrom('def_field')
    .select(['id', 'type'])
    .where('id', '=', defFieldId)
    .where('environment_id', '=', environmentId)
    .executeTakeFirst();
  if (!field) throw badRequest({ defField: NOT_IN_ENVIRONMENT });
  return field;
}

/** A data field's settings override some of its base field's: each key the type knows must parse (400). */
function assertSettings(type: string, settings: Record<string, unknown> | undefined) {
  const checked = validateFieldSettings(type, settings, 'override');
  if (!checked.ok) throw badRequest(checked.errors);
}

async function assertNameFree(db: Db, defDossierId: number, name: string, exceptId?: number) {
  let query = db
    .selectFrom('def_dossier_def_field')
    .select('id')
    .where('def_dossier_id', '=', defDossierId)
    .where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw badRequest({ name: NAME_TAKEN });
}

function translateUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error, 'def_dossier_def_field_name_key')) throw badRequest({ name: NAME_TAKEN });
  if (isUniqueViolation(error, 'def_dossier_def_field_uuid_key')) throw badRequest({ uuid: UUID_TAKEN });
  throw error;
}

export async function createDataField(db: Db, input: DataFieldCreate): Promise<DataFieldRow> {
  const entity = await bodyEntity(db, input.environment, input.defDossier);
  const base = await baseFieldOf(db, input.environment, input.defField);
  assertSettings(base.type, input.settings);
  const name = sanitiseFieldName(input.name);
  await assertNameFree(db, entity.id, name);
  await checkRoleIds(db, input.environment, input.roles, 'roles');
  const roles = [...new Set(input.roles)];
  try {
    return await db
      .insertInto('def_dossier_def_field')
      .values({
        environment_id: input.environment,
        def_dossier_id: entity.id,
        def_field_id: input.defField,
        ...(input.uuid ? { uuid: input.uuid } : {}),
        name,
        obligatory: input.obligatory,
        locked: input.locked,
        roles,
        permissions_type: input.permissions_type,
        settings: input.settings,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    translateUniqueViolation(error);
  }
}

export async function updateDataField(
  db: Db,
  row: DataFieldRow,
  input: DataFieldUpdate,
): Promise<DataFieldRow> {
  const name = input.name === undefined ? undefined : sanitiseFieldName(input.name);
  if (input.roles) await checkRoleIds(db, row.environment_id, input.roles, 'roles');
  const roles = input.roles && [...new Set(input.roles)];
  assertNotLocked(
    row.locked,
    {
      name: row.name,
      defField: row.def_field_id,
      obligatory: row.obligatory,
      roles: row.roles,
      permissions_type: row.permissions_type,
      settings: row.settings,
    },
    { ...input, name, roles },
  );
  const current = await db
    .selectFrom('def_field')
    .select('type')
    .where('id', '=', row.def_field_id)
    .executeTakeFirstOrThrow();
  let type = current.type;
  if (input.defField !== undefined && input.defField !== row.def_field_id) {
    if (valueRefsOf(current.type) === 'options')
      throw badRequest({ defField: ENTITY_MESSAGES.listFieldFixed });
    const next = await baseFieldOf(db, row.environment_id, input.defField);
    if (next.type !== current.type && (await placementsOf(db, 'def_dossier_def_field_id', [row.id])).length) {
      throw badRequest({ defField: ENTITY_MESSAGES.placedFieldType });
    }
    type = next.type;
  }
  assertSettings(type, input.settings);
  if (name !== undefined && name !== row.name) await assertNameFree(db, row.def_dossier_id, name, row.id);
  const changes = {
    name,
    def_field_id: input.defField,
    obligatory: input.obligatory,
    locked: input.locked,
    roles,
    permissions_type: input.permissions_type,
    settings: input.settings,
  };
  if (Object.values(changes).every((value) => value === undefined)) return row;
  const write = (db: Db) =>
    db
      .updateTable('def_dossier_def_field')
      .set(changes)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  const visibility = {
    roles: roles ?? row.roles,
    permissions_type: input.permissions_type ?? row.permissions_type,
  };
  try {
    if (isDeepStrictEqual(visibility, { roles: row.roles, permissions_type: row.permissions_type }))
      return await write(db);
    // who sees the field changes: so does who sees it in the summaries
    const entity = { id: row.def_dossier_id, environment_id: row.environment_id };
    return await withSummaryUpdate(db, entity, await summaryEffect(db, row, visibility), write);
  } catch (error) {
    translateUniqueViolation(error);
  }
}

/** What a new role visibility of a data field means for the summaries of its entity. */
async function summaryEffect(db: Db, row: DataFieldRow, visibility: RoleRule): Promise<SummaryEffect> {
  const summaryItem = await db
    .selectFrom('display_item')
    .select('id')
    .where('environment_id', '=', row.environment_id)
    .where('def_dossier_def_field_id', '=', row.id)
    .where('view', '=', 'summary')
    .executeTakeFirst();
  // In the summary items, the variants follow the new rule; as the fall-back field, a field that is
  // now restricted leaves every summary first.
  return { items: summaryItem ? {} : null, restricts: isRestricted(visibility) ? row.id : null };
}

export async function deleteDataField(db: Db, row: DataFieldRow): Promise<void> {
  const placements = await placementsOf(db, 'def_dossier_def_field_id', [row.id]);
  if (placements.length) {
    throw badRequest({ defDossierDefField: placedMessage(ENTITY_MESSAGES.placedFieldDelete, placements) });
  }
  await db.deleteFrom('def_dossier_def_field').where('id', '=', row.id).execute();
}
