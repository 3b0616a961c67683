import type { PermissionAction } from '@dossierbase/core';
import { PERMISSION_ACTIONS } from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/database';
import type { DefDossierTable, UserRow } from '../db/schema';
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

/**
 * The entity and every entity a link joins to it (either side), from the configuration: whose data
 * versions key the list's cached totals (query/list-cache.ts).
 */
export function entityAndLinkedIds(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
): Promise<number[]> {
  return configCached(access, `entity-and-linked:${defDossierId}`, async () => {
    const links = await db
      .selectFrom('def_dossier_link')
      .select(['def_dossier_id', 'child_def_dossier_id'])
      .where('environment_id', '=', access.environment.id)
      .where((eb) =>
        eb.or([eb('def_dossier_id', '=', defDossierId), eb('child_def_dossier_id', '=', defDossierId)]),
      )
      .execute();
    return [...new Set([defDossierId, ...links.flatMap((l) => [l.def_dossier_id, l.child_def_dossier_id])])];
  });
}

/** The environment an entity belongs to; 404 for an unknown entity. */
export async function environmentOfEntity(db: Db, defDossierId: number): Promise<number> {
  const row = await db
    .selectFrom('def_dossier')
    .select('environment_id')
    .where('id', '=', defDossierId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row.environment_id;
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
  const envId = environmentId ?? (await environmentOfEntity(db, defDossierId));
  const access = await openEnvironment(db, user, envId);
  const entity = await entityInEnvironment(db, access, defDossierId);
  return { access, entity, permissions: await entityPermissions(db, access, entity.id) };
}

/**
 * The entities of these environments whose dossiers holders of these roles may show, in one statement
 * for any number of environments (a role belongs to one environment).
 */
export async function entitiesShownToRoles(
  db: Db,
  environmentIds: readonly number[],
  roleIds: readonly number[],
): Promise<Set<number>> {
  if (environmentIds.length === 0 || roleIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('permission')
    .select('def_dossier_id')
    .where('environment_id', 'in', environmentIds)
    .where('role_id', 'in', roleIds)
    .where(sql<boolean>`'show' = any(actions)`)
    .execute();
  return new Set(rows.map((row) => row.def_dossier_id));
}

/**
 * The entities of the access's environment whose dossiers the user may show: every one for super and
 * environment admins ('all'), otherwise those their roles hold show on.
 */
export async function entitiesShownIn(db: Db, access: EnvironmentAccess): Promise<'all' | number[]> {
  if (isEnvironmentAdmin(access)) return 'all';
  return [...(await entitiesShownToRoles(db, [access.environment.id], access.membership?.role_ids ?? []))];
}

/**
 * Whether the entity is in the user's menus (spec doc 1 sections 3 and 6): admins see every entity;
 * members those that are not hidden, that they may show (`shown`: entitiesShownToRoles) and, when
 * the entity names visibility roles, whose roles they hold one of.
 */
export function entityInMenus(
  access: Pick<EnvironmentAccess, 'user' | 'membership'>,
  entity: Pick<Selectable<DefDossierTable>, 'id' | 'type' | 'visibility_roles'>,
  shown: ReadonlySet<number>,
): boolean {
  if (isEnvironmentAdmin(access)) return true;
  const roleIds = access.membership?.role_ids ?? [];
  return (
    entity.type !== 'hidden' &&
    shown.has(entity.id) &&
    (entity.visibility_roles.length === 0 || entity.visibility_roles.some((role) => roleIds.includes(role)))
  );
}
