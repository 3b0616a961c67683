import { ENVIRONMENT_MESSAGES } from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/database';
import type { EnvironmentRow, EnvironmentUserTable, UserRow } from '../db/schema';
import { forbidden, notFound } from '../http-errors';
import { isContractAdmin, isSuperAdmin } from './roles';

export type Membership = Selectable<EnvironmentUserTable>;

/** Everything a permission decision about one environment needs. */
export interface EnvironmentAccess {
  environment: EnvironmentRow;
  membership: Membership | null;
  user: UserRow;
}

/** Super admins see every environment; everyone else only those they belong to. */
export const seesAllEnvironments = (user: UserRow) => isSuperAdmin(user);

export const canCreateEnvironment = (user: UserRow) => isSuperAdmin(user) || isContractAdmin(user);

export const isEnvironmentAdmin = (access: EnvironmentAccess) =>
  isSuperAdmin(access.user) || (access.membership?.credentials.includes('environment-admin') ?? false);

const ENVIRONMENT_COLUMNS = [
  'id',
  'name',
  'description',
  'active',
  'logo_mime',
  'apply_template',
  'settings',
  'env_modules',
  'config_version',
  'created_by',
  'modified_by',
  'created_at',
  'modified_at',
] as const satisfies readonly Exclude<keyof EnvironmentRow, 'logo'>[];

/**
 * Loads the environment for a user who wants to work in it: 404 when it does not exist,
 * 403 when they are not a member, 403 with the inactive message when it is switched off.
 */
export async function openEnvironment(
  db: Db,
  user: UserRow,
  environmentId: number,
): Promise<EnvironmentAccess> {
  // Every call reads this row, with the user's membership in the same statement; the logo's bytes
  // (up to 2 MB) stay behind, the logo route reads them.
  const row = await db
    .selectFrom('environment as e')
    .leftJoin('environment_user as eu', (join) =>
      join.onRef('eu.environment_id', '=', 'e.id').on('eu.user_id', '=', user.id),
    )
    .select(ENVIRONMENT_COLUMNS.map((column) => `e.${column}` as const))
    .select(sql<null>`null`.as('logo'))
    .select((eb) =>
      eb
        .case()
        .when('eu.id', 'is not', null)
        .then(sql<Membership>`to_jsonb(eu)`)
        .else(null)
        .end()
        .as('membership'),
    )
    .where('e.id', '=', environmentId)
    .executeTakeFirst();
  if (!row) throw notFound('Environment not found');
  const { membership: rawMembership, ...environment } = row;
  const membership = rawMembership
    ? { ...rawMembership, created_at: new Date(rawMembership.created_at) }
    : null;
  if (!membership && !seesAllEnvironments(user)) throw forbidden();
  if (!environment.active) throw forbidden(ENVIRONMENT_MESSAGES.inactive);
  return { environment, membership, user };
}

export async function requireEnvironmentAdmin(db: Db, user: UserRow, environmentId: number) {
  const access = await openEnvironment(db, user, environmentId);
  if (!isEnvironmentAdmin(access)) throw forbidden();
  return access;
}
