import type { UserRow } from '../db/schema';
import type { Membership } from './environment';
import { isSuperAdmin } from './roles';

// Who administers an environment's members, and what keeps an environment administered.

/** An active member holding environment-admin: one of the environment's own admins. */
export const isActiveAdmin = (membership: Pick<Membership, 'active' | 'credentials'>) =>
  membership.active && membership.credentials.includes('environment-admin');

/**
 * The change of a membership (`after` null: removed) would leave the environment without an active
 * admin, given how many other active admins it has.
 */
export const leavesWithoutAdmin = (
  before: Pick<Membership, 'active' | 'credentials'>,
  after: Pick<Membership, 'active' | 'credentials'> | null,
  otherActiveAdmins: number,
) => isActiveAdmin(before) && !(after && isActiveAdmin(after)) && otherActiveAdmins === 0;

/** Super admins bring people into any environment beyond its subscription's user limit. */
export const invitesWithoutLimit = (user: Pick<UserRow, 'roles'>) => isSuperAdmin(user);
