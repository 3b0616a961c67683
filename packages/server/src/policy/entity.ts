import type { PermissionAction } from '@dossierbase/core';
import { PERMISSION_ACTIONS } from '@dossierbase/core';
import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { notFound } from '../http-errors';
import { configCached } from './config-cache';
import { type EnvironmentAccess, isEnvironmentAdmin, openEnvironment } from './environment';

/**
 * What the user may do with dossiers of one entity: everything for super and environment admins,
 * otherwise the union of the permissions of their roles in the environment.
 */
export async function entityPermissions(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
): Promise<Set<PermissionAction>> {
  if (isEnvironmentAdmin(access)) return new Set(PERMISSION_ACTIONS);
  const roleIds = access.membership?.role_ids ?? [];
  if (roleIds.length === 0) return new Set();
  const actions = await configCached(access, `permissions:${defDossierId}`, async () => {
    const rows = await db
      .selectFrom('permission')
      .select('actions')
      .where('environment_id', '=', access.environment.id)
      .where('def_dossier_id', '=', defDossierId)
      .where('role_id', 'in', roleIds)
      .execute();
    return rows.flatMap((row) => row.actions as PermissionAction[]);
  });
  return new Set(actions);
}

/** The entity, when it belongs to the environment of the access; 404 otherwise (never another tenant's). */
export async function entityInEnvironment(db: Db, access: EnvironmentAccess, defDossierId: number) {
  const entity = await configCached(access, `entity:${defDossierId}`, () =>
    db
      .selectFrom('def_dossier')
      .selectAll()
      .where('id', '=', defDossierId)
      .where('environment_id', '=', access.environment.id)
      .executeTakeFirst(),
  );
  if (!entity) throw notFound();
  return entity;
}

export interface EntityScope {
  access: EnvironmentAccess;
  entity: Awaited<ReturnType<typeof entityInEnvironment>>;
  permissions: Set<PermissionAction>;
}

/**
 * The entity with the user's access to its environment and their actions on it: 404 for an unknown
 * entity or one outside `environmentId`, 403 from the environment check. With the environment given
 * the entity comes from the configuration cache.
 */
export async function openEntityScope(
  db: Db,
  user: UserRow,
  defDossierId: number,
  environmentId?: number | null,
): Promise<EntityScope> {
  let envId = environmentId ?? null;
  if (envId === null) {
    const row = await db
      .selectFrom('def_dossier')
      .select('environment_id')
      .where('id', '=', defDossierId)
      .executeTakeFirst();
    if (!row) throw notFound();
    envId = row.environment_id;
  }
  const access = await openEnvironment(db, user, envId);
  const entity = await entityInEnvironment(db, access, defDossierId);
  return { access, entity, permissions: await entityPermissions(db, access, entity.id) };
}
