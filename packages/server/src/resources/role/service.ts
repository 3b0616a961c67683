import type { Pager, roleCreateSchema, rolePatchSchema } from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import { badRequest } from '../../http-errors';
import { entityName } from '../def-dossier/present';
import { isUniqueViolation } from '../def-dossier/service';
import { escapeLike } from '../environment/service';
import type { RoleRow } from './present';

export const ROLE_MESSAGES = { nameTaken: 'A role with this name exists' } as const;

export async function listRoles(
  db: Db,
  environmentId: number,
  { limit, page, search }: { limit: number; page: number; search?: string },
): Promise<{ rows: RoleRow[]; pager: Pager }> {
  let query = db.selectFrom('role').where('environment_id', '=', environmentId);
  if (search?.trim()) query = query.where('name', 'ilike', `%${escapeLike(search.trim())}%`);
  return paginate(query, (q) => q.selectAll().orderBy(sql`lower(name)`).orderBy('id'), {
    page: page,
    limit: limit,
  });
}

export const findRole = (db: Db, id: number) =>
  db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();

/** Role names are unique per environment, ignoring case. */
async function assertNameFree(db: Db, environmentId: number, name: string, exceptId?: number) {
  let query = db
    .selectFrom('role')
    .select('id')
    .where('environment_id', '=', environmentId)
    .where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw badRequest({ name: ROLE_MESSAGES.nameTaken });
}

const nameTakenOnRace = (error: unknown): never => {
  if (isUniqueViolation(error)) throw badRequest({ name: ROLE_MESSAGES.nameTaken });
  throw error;
};

export async function createRole(db: Db, input: z.output<typeof roleCreateSchema>): Promise<RoleRow> {
  await assertNameFree(db, input.environment, input.name);
  return db
    .insertInto('role')
    .values({
      environment_id: input.environment,
      name: input.name,
      translations: input.translations,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameTakenOnRace);
}

export async function updateRole(
  db: Db,
  row: RoleRow,
  input: z.output<typeof rolePatchSchema>,
): Promise<RoleRow> {
  if (input.name !== undefined) await assertNameFree(db, row.environment_id, input.name, row.id);
  if (input.name === undefined && input.translations === undefined) return row;
  return db
    .updateTable('role')
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.translations !== undefined ? { translations: input.translations } : {}),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameTakenOnRace);
}

const list = (names: string[]) => [...new Set(names)].join(', ');

/** Where the role is still used, as readable parts; empty when it is free to go. */
export async function roleUsage(db: Db, row: RoleRow): Promise<string[]> {
  const environmentId = row.environment_id;
  const roleArray = sql`array[${row.id}]::integer[]`;
  const [members, permissions, items, entities, options] = await Promise.all([
    db
      .selectFrom('environment_user')
      .innerJoin('app_user', 'app_user.id', 'environment_user.user_id')
      .select('app_user.username')
      .where('environment_user.environment_id', '=', environmentId)
      .where(sql<boolean>`environment_user.role_ids @> ${roleArray}`)
      .orderBy('app_user.username')
      .execute(),
    db
      .selectFrom('permission')
      .innerJoin('def_dossier', 'def_dossier.id', 'permission.def_dossier_id')
      .select(['def_dossier.id', 'def_dossier.translations'])
      .where('permission.environment_id', '=', environmentId)
      .where('permission.role_id', '=', row.id)
      .where(sql<boolean>`cardinality(permission.actions) > 0`)
      .orderBy('def_dossier.rank')
      .orderBy('def_dossier.id')
      .execute(),
    db
      .selectFrom('display_item')
      .innerJoin('def_dossier', 'def_dossier.id', 'display_item.def_dossier_id')
      .select(['def_dossier.id', 'def_dossier.translations'])
      .where('display_item.environment_id', '=', environmentId)
      .where(sql<boolean>`display_item.roles @> ${roleArray}`)
      .orderBy('def_dossier.rank')
      .orderBy('def_dossier.id')
      .execute(),
    db
      .selectFrom('def_dossier')
      .select(['id', 'translations'])
      .where('environment_id', '=', environmentId)
      .where(sql<boolean>`visibility_roles @> ${roleArray}`)
      .orderBy('rank')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('def_field_list')
      .innerJoin('def_field', 'def_field.id', 'def_field_list.def_field_id')
      .select('def_field.name')
      .where('def_field_list.environment_id', '=', environmentId)
      .where(sql<boolean>`def_field_list.settings->'roles' @> ${JSON.stringify([row.id])}::jsonb`)
      .orderBy('def_field.name')
      .execute(),
  ]);
  const parts: string[] = [];
  if (members.length) parts.push(`members ${list(members.map((m) => m.username))}`);
  if (permissions.length) parts.push(`permissions on ${list(permissions.map(entityName))}`);
  if (items.length) parts.push(`display items of ${list(items.map(entityName))}`);
  if (entities.length) parts.push(`visibility of ${list(entities.map(entityName))}`);
  if (options.length) parts.push(`list options of ${list(options.map((o) => o.name))}`);
  return parts;
}

export async function deleteRole(db: Db, row: RoleRow): Promise<void> {
  const usage = await roleUsage(db, row);
  if (usage.length) throw badRequest({ id: `Used by ${usage.join('; ')}` });
  await db.deleteFrom('role').where('id', '=', row.id).execute();
}
