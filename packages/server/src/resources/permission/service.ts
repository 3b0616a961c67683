import { PERMISSION_ACTIONS, PERMISSION_MESSAGES, type permissionPutSchema } from '@dossierbase/core';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import { badRequest } from '../../http-errors';
import type { PermissionRow } from './present';

export async function listPermissions(
  db: Db,
  environmentId: number,
  defDossierId?: number,
): Promise<PermissionRow[]> {
  let query = db
    .selectFrom('permission')
    .innerJoin('role', 'role.id', 'permission.role_id')
    .selectAll('permission')
    .where('permission.environment_id', '=', environmentId);
  if (defDossierId !== undefined) query = query.where('permission.def_dossier_id', '=', defDossierId);
  return query.orderBy('permission.def_dossier_id').orderBy('role.name').orderBy('permission.id').execute();
}

/** Sets the role's actions on the entity (one row per entity and role). */
export async function putPermission(
  db: Db,
  input: z.output<typeof permissionPutSchema>,
): Promise<PermissionRow> {
  const [entity, role] = await Promise.all([
    db
      .selectFrom('def_dossier')
      .select('id')
      .where('id', '=', input.defDossier)
      .where('environment_id', '=', input.environment)
      .executeTakeFirst(),
    db
      .selectFrom('role')
      .select('id')
      .where('id', '=', input.role)
      .where('environment_id', '=', input.environment)
      .executeTakeFirst(),
  ]);
  const errors: Record<string, string> = {};
  if (!entity) errors.defDossier = PERMISSION_MESSAGES.unknownEntity;
  if (!role) errors.role = PERMISSION_MESSAGES.unknownRole;
  if (Object.keys(errors).length) throw badRequest(errors);
  const actions = PERMISSION_ACTIONS.filter((action) => input.actions.includes(action));
  return db
    .insertInto('permission')
    .values({
      environment_id: input.environment,
      def_dossier_id: input.defDossier,
      role_id: input.role,
      actions,
    })
    .onConflict((oc) => oc.constraint('permission_role_key').doUpdateSet({ actions }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
