import type { PERMISSION_TYPES } from '@dossierbase/core';
import { type EnvironmentAccess, isEnvironmentAdmin } from './environment';

// Visibility by role (spec doc 2 section 5): a data field's roles and permission type say who sees
// the field, in every view (show, edit, list, search, advanced search, summary, sort, filter,
// aggregations); a display item's own roles may narrow that for its view, never widen it. INCLUDE:
// only holders of one of the roles; EXCLUDE: everyone but holders of one of them. Environment and
// super admins see everything.

/** Who sees a data field, or one display item of it. */
export interface RoleRule {
  roles: readonly number[];
  permissions_type: (typeof PERMISSION_TYPES)[number];
}

/** The rule admits a member holding these roles. */
export function admitsRoleIds(roleIds: ReadonlySet<number>, rule: RoleRule): boolean {
  const matches = rule.roles.some((role) => roleIds.has(role));
  return rule.permissions_type === 'INCLUDE_SELECTED_ROLES' ? matches : !matches;
}

/** Hidden from someone: only for the selected roles, or not for some roles. */
export const isRestricted = (rule: RoleRule) =>
  rule.permissions_type === 'INCLUDE_SELECTED_ROLES' || rule.roles.length > 0;

/** Every rule admits a member holding these roles (a field's and its item's). */
export const allAdmitRoleIds = (roleIds: ReadonlySet<number>, rules: readonly RoleRule[]) =>
  rules.every((rule) => admitsRoleIds(roleIds, rule));

/** The rule admits the user: an admin, or a member whose roles it admits. */
export function admitsUser(access: EnvironmentAccess, rule: RoleRule): boolean {
  if (isEnvironmentAdmin(access)) return true;
  return admitsRoleIds(new Set(access.membership?.role_ids ?? []), rule);
}

/** The rules that decide who sees a display item: its data field's (in every view), then its own. */
export const itemRules = (item: RoleRule, dataField: RoleRule | null): RoleRule[] =>
  dataField ? [dataField, item] : [item];
