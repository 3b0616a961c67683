import type { Presence, SeenPresence } from '@dossierbase/core';
import type { UserRow } from '../db/schema';
import { isSuperAdmin } from './roles';

// What users see of each other: colleagues are the members of an environment they share.

/**
 * A user's own pictures and those of colleagues; super admins, who open every environment, see
 * everyone's. Nobody else's: their avatar would tell who works where.
 */
export const canSeeUserOf = (viewer: Pick<UserRow, 'id' | 'roles'>, ownerId: number, colleagues: boolean) =>
  viewer.id === ownerId || colleagues || isSuperAdmin(viewer);

/** Colleagues see the presence a user chose, and offline when they are invisible or signed in nowhere. */
export function presenceSeenByColleagues(chosen: Presence | undefined, signedIn: boolean): SeenPresence {
  if (!signedIn || chosen === 'invisible') return 'offline';
  return chosen ?? 'online';
}
