import { describe, expect, test } from 'vitest';
import type { EnvironmentAccess } from './environment';
import {
  admitsRoleIds,
  admitsUser,
  allAdmitRoleIds,
  isRestricted,
  itemRules,
  type RoleRule,
} from './field-visibility';

const include = (...roles: number[]): RoleRule => ({ roles, permissions_type: 'INCLUDE_SELECTED_ROLES' });
const exclude = (...roles: number[]): RoleRule => ({ roles, permissions_type: 'EXCLUDE_SELECTED_ROLES' });
const holding = (...roles: number[]) => new Set(roles);
const member = (roleIds: number[]) =>
  ({
    user: { roles: ['ROLE_USER'] },
    membership: { credentials: [], role_ids: roleIds },
  }) as unknown as EnvironmentAccess;
const admin = {
  user: { roles: ['ROLE_USER'] },
  membership: { credentials: ['environment-admin'], role_ids: [] },
} as unknown as EnvironmentAccess;

describe('role rules', () => {
  test('INCLUDE admits holders of one of the roles; EXCLUDE everyone else', () => {
    expect(admitsRoleIds(holding(1), include(1, 2))).toBe(true);
    expect(admitsRoleIds(holding(3), include(1, 2))).toBe(false);
    expect(admitsRoleIds(holding(), include())).toBe(false);
    expect(admitsRoleIds(holding(3), exclude(1, 2))).toBe(true);
    expect(admitsRoleIds(holding(2, 3), exclude(1, 2))).toBe(false);
    expect(admitsRoleIds(holding(), exclude())).toBe(true);
  });

  test('restricted unless it excludes nobody', () => {
    expect(isRestricted(exclude())).toBe(false);
    expect(isRestricted(exclude(1))).toBe(true);
    expect(isRestricted(include())).toBe(true);
    expect(isRestricted(include(1))).toBe(true);
  });

  test('admins pass every rule; members by their roles', () => {
    expect(admitsUser(admin, include())).toBe(true);
    expect(admitsUser(member([1]), include(1))).toBe(true);
    expect(admitsUser(member([1]), exclude(1))).toBe(false);
  });
});

describe("an item's rules: its field's in every view, narrowed by its own", () => {
  test('the item may narrow the field', () => {
    const rules = itemRules(exclude(2), exclude());
    expect(allAdmitRoleIds(holding(1), rules)).toBe(true);
    expect(allAdmitRoleIds(holding(2), rules)).toBe(false);
  });

  test('the item never widens the field', () => {
    // the field is hidden from role 1; an item for role 1 does not bring it back
    const rules = itemRules(include(1), exclude(1));
    expect(allAdmitRoleIds(holding(1), rules)).toBe(false);
    expect(allAdmitRoleIds(holding(2), rules)).toBe(false);
    expect(allAdmitRoleIds(holding(1), itemRules(exclude(), include(2)))).toBe(false);
  });

  test('an item without a data field (links, dossier data) has its own rule only', () => {
    expect(itemRules(include(1), null)).toEqual([include(1)]);
  });
});
