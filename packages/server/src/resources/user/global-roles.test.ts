import { FORBIDDEN_MESSAGE, MEMBER_MESSAGES } from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildEnvironment, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const rolesOf = async (id: number) =>
  (await t.db.selectFrom('app_user').select('roles').where('id', '=', id).executeTakeFirstOrThrow()).roles;

describe('PUT /api/user/:id/roles (global roles)', () => {
  test('a super admin grants and takes super and contract admin; the roles of the account stay', async () => {
    const superAdmin = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const target = await t.signIn({ roles: ['ROLE_USER', 'ROLE_AZURE_USER'] });
    const elsewhere = await buildEnvironment(t.db);
    expect((await target.client.get(`/api/environment/${elsewhere.id}`)).statusCode).toBe(404);

    const granted = await superAdmin.client.request({
      method: 'PUT',
      url: `/api/user/${target.user.id}/roles`,
      payload: { roles: ['ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN', 'ROLE_ADMIN'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toEqual({
      id: target.user.id,
      global_roles: ['ROLE_ADMIN', 'ROLE_CONTRACT_ADMIN'],
    });
    expect(await rolesOf(target.user.id)).toEqual([
      'ROLE_USER',
      'ROLE_AZURE_USER',
      'ROLE_ADMIN',
      'ROLE_CONTRACT_ADMIN',
    ]);
    // in effect on the target's next call: a super admin opens every environment
    expect((await target.client.get(`/api/environment/${elsewhere.id}`)).statusCode).toBe(200);

    const taken = await superAdmin.client.request({
      method: 'PUT',
      url: `/api/user/${target.user.id}/roles`,
      payload: { roles: [] },
    });
    expect(taken.json().global_roles).toEqual([]);
    expect(await rolesOf(target.user.id)).toEqual(['ROLE_USER', 'ROLE_AZURE_USER']);
  });

  test('environment admins, members and anonymous callers are refused before the body is read', async () => {
    const envAdmin = await t.signIn();
    await buildEnvironment(t.db, { members: [{ user: envAdmin.user, credentials: ['environment-admin'] }] });
    const member = await t.signIn();
    const target = await buildUser(t.db);
    for (const client of [envAdmin.client, member.client]) {
      for (const payload of [{ roles: ['ROLE_ADMIN'] }, { roles: 'garbage' }]) {
        const response = await client.request({
          method: 'PUT',
          url: `/api/user/${target.id}/roles`,
          payload,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: FORBIDDEN_MESSAGE });
      }
    }
    const anonymous = await t.client().request({
      method: 'PUT',
      url: `/api/user/${target.id}/roles`,
      payload: { roles: ['ROLE_ADMIN'] },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await rolesOf(target.id)).toEqual(['ROLE_USER']);
  });

  test('unknown roles and users, and the last super admin, are refused with a message', async () => {
    const superAdmin = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const put = (id: number | string, payload: unknown) =>
      superAdmin.client.request({ method: 'PUT', url: `/api/user/${id}/roles`, payload: payload as object });
    const target = await buildUser(t.db);
    const unknownRole = await put(target.id, { roles: ['ROLE_USER'] });
    expect(unknownRole.statusCode).toBe(400);
    expect(Object.keys(unknownRole.json().errors)).toEqual(['roles.0']);
    expect((await put(2_147_483_000, { roles: [] })).statusCode).toBe(404);
    expect((await put('abc', { roles: [] })).statusCode).toBe(400);

    // Every other super admin of this database steps down, then the last one cannot.
    const others = await t.db
      .selectFrom('app_user')
      .select('id')
      .where('id', '<>', superAdmin.user.id)
      .where(sql<boolean>`'ROLE_ADMIN' = any(roles)`)
      .execute();
    for (const other of others) expect((await put(other.id, { roles: [] })).statusCode).toBe(200);
    const last = await put(superAdmin.user.id, { roles: ['ROLE_CONTRACT_ADMIN'] });
    expect(last.statusCode).toBe(400);
    expect(last.json()).toEqual({ errors: { roles: MEMBER_MESSAGES.lastSuperAdmin } });
    expect(await rolesOf(superAdmin.user.id)).toEqual(['ROLE_USER', 'ROLE_ADMIN']);
  });
});
