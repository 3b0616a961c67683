import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { forbidden } from '../http-errors';
import { openEntityScope } from './entity';
import { type EnvironmentAccess, isEnvironmentAdmin, openEnvironment } from './environment';

// The configuration reads a dossier page needs (the entity, its positions and display items) are the
// administrators' calls; an ordinary member gets them for an entity they may show, reduced to what
// the dossier screens use and filtered for their roles.

/** Entity settings a dossier page reads; the rest (e.g. address-lookup keys) stays with admins. */
export const MEMBER_ENTITY_SETTINGS = [
  'add_continue',
  'layout_sidebar',
  'detail_layout',
  'conditions',
] as const;

/**
 * For a member without admin rights who may show the entity: their access. For an environment admin:
 * null (the caller takes the admin path). Otherwise 403, or 404 for an unknown entity.
 */
export async function memberEntityAccess(
  db: Db,
  user: UserRow,
  defDossierId: number | undefined,
  environmentId?: number,
): Promise<EnvironmentAccess | null> {
  if (defDossierId === undefined) {
    if (environmentId === undefined) return null;
    const access = await openEnvironment(db, user, environmentId);
    if (isEnvironmentAdmin(access)) return null;
    throw forbidden();
  }
  const { access, permissions } = await openEntityScope(db, user, defDossierId, environmentId);
  if (isEnvironmentAdmin(access)) return null;
  if (!permissions.has('show')) throw forbidden();
  return access;
}
