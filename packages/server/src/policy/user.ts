import type { UserAbilities } from '@dossierbase/core';
import type { UserRow } from '../db/schema';
import { isContractAdmin, isSuperAdmin } from './roles';

/** Super and contract admins create environments (and use the Tools menu). */
export const canCreateEnvironment = (user: Pick<UserRow, 'roles'>) =>
  isSuperAdmin(user) || isContractAdmin(user);

/** Contract admins buy subscriptions, which set how many environments they may create. */
export const holdsSubscriptions = (user: Pick<UserRow, 'roles'>) => isContractAdmin(user);

/** Handing out a one-time login key lets the holder act as that user: super admins only. */
export const canIssueLoginKey = (actor: UserRow) => isSuperAdmin(actor);

/**
 * After a key login the user must choose a password of their own before anything else: every call
 * but the change (and what shows its form) is refused until then.
 */
export const mustReplacePassword = (user: UserRow) => user.force_password_update;

/** The user's abilities across environments, sent with the token data. */
export const userAbilities = (user: Pick<UserRow, 'roles'>): UserAbilities => ({
  canCreateEnvironments: canCreateEnvironment(user),
  canHoldSubscriptions: holdsSubscriptions(user),
});

/** Global roles (super admin, contract admin) reach every environment: only super admins change them. */
export const canChangeGlobalRoles = (actor: Pick<UserRow, 'roles'>) => isSuperAdmin(actor);
