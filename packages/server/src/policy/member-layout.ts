import type { Db } from '../db/database';
import type { UserRow } from '../db/schema';
import { forbidden } from '../http-errors';
import { authorize, canShowDossiers } from './dossier';
import { type EntityScope, openEntityScope } from './entity';
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
 * The user's scope on an entity whose configuration a dossier page reads: `member` false for an
 * environment admin (the whole configuration), true for a member who may show the entity (what
 * MEMBER_ENTITY_SETTINGS and their roles allow); 403 for other members, 404 for an unknown entity.
 */
export async function openEntityLayout(
  db: Db,
  user: UserRow,
  defDossierId: number,
  environmentId?: number,
): Promise<{ scope: EntityScope; member: boolean }> {
  const scope = await openEntityScope(db, user, defDossierId, environmentId);
  if (isEnvironmentAdmin(scope.access)) return { scope, member: false };
  authorize(canShowDossiers(scope));
  return { scope, member: true };
}

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
  const { scope, member } = await openEntityLayout(db, user, defDossierId, environmentId);
  return member ? scope.access : null;
}
