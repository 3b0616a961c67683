import { describe, expect, test } from 'vitest';
import type { UserRow } from '../db/schema';
import { membershipOpens, signedInFrom } from './environment';
import { invitesWithoutLimit, isActiveAdmin, leavesWithoutAdmin } from './membership';
import { canChangeGlobalRoles } from './user';

const admin = { active: true, credentials: ['environment-admin', 'export'] };
const member = { active: true, credentials: ['export'] };
const user = (roles: string[]) => ({ roles }) as UserRow;

describe('membership policy', () => {
  test('an active admin is an active member holding environment-admin', () => {
    expect(isActiveAdmin(admin)).toBe(true);
    expect(isActiveAdmin({ ...admin, active: false })).toBe(false);
    expect(isActiveAdmin(member)).toBe(false);
  });

  test('removing, deactivating or demoting the only active admin leaves the environment without one', () => {
    expect(leavesWithoutAdmin(admin, null, 0)).toBe(true);
    expect(leavesWithoutAdmin(admin, { ...admin, active: false }, 0)).toBe(true);
    expect(leavesWithoutAdmin(admin, member, 0)).toBe(true);
    // another active admin, a change that keeps them admin, or someone who was no admin
    expect(leavesWithoutAdmin(admin, null, 1)).toBe(false);
    expect(leavesWithoutAdmin(admin, { ...admin, credentials: ['environment-admin'] }, 0)).toBe(false);
    expect(leavesWithoutAdmin(member, null, 0)).toBe(false);
    expect(leavesWithoutAdmin({ ...admin, active: false }, null, 0)).toBe(false);
  });

  test('a deactivated member opens the environment no more, unless they are a super admin', () => {
    expect(membershipOpens(user(['ROLE_USER']), { active: true })).toBe(true);
    expect(membershipOpens(user(['ROLE_USER']), { active: false })).toBe(false);
    expect(membershipOpens(user(['ROLE_USER', 'ROLE_ADMIN']), { active: false })).toBe(true);
  });

  test('only super admins change global roles and invite beyond the user limit', () => {
    for (const check of [canChangeGlobalRoles, invitesWithoutLimit]) {
      expect(check(user(['ROLE_USER', 'ROLE_ADMIN']))).toBe(true);
      expect(check(user(['ROLE_USER', 'ROLE_CONTRACT_ADMIN']))).toBe(false);
      expect(check(user(['ROLE_USER']))).toBe(false);
    }
  });

  test('a sign-in read is parsed once, and each call gets a user object of its own', () => {
    const text = JSON.stringify({
      user: { id: 7, username: 'ann', active: true, created_at: '2026-11-30T08:00:00.000Z' },
      environment: null,
      membership: null,
    });
    const first = signedInFrom(text);
    const second = signedInFrom(text);
    expect(first?.user).toMatchObject({ id: 7, username: 'ann', active: true, avatar_at: null });
    expect(first?.user.created_at).toEqual(new Date('2026-11-30T08:00:00.000Z'));
    expect(second?.user).toEqual(first?.user);
    expect(second?.user).not.toBe(first?.user);
    expect(signedInFrom(JSON.stringify({ user: null, environment: null, membership: null }))).toBeUndefined();
  });
});
