import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildListOption,
  buildPermission,
} from '../../../test/entity-factories';
import { adminSetup, refusalOf } from '../../../test/entity-test-setup';
import { addMember, buildDefDossier, buildEnvironment, buildRole, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/role', () => {
  test('create, read, update and delete', async () => {
    const { environment, admin } = await adminSetup(t);
    const created = await admin.post('/api/role', {
      environment: environment.id,
      name: '  Case worker ',
      translations: [{ culture: 'nl_NL', name: 'Casemanager' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const role = created.json();
    expect(role).toEqual({
      id: expect.any(Number),
      environment_id: environment.id,
      name: 'Case worker',
      translations: [{ culture: 'nl_NL', name: 'Casemanager' }],
    });

    expect((await admin.get(`/api/role/${role.id}`)).json()).toEqual(role);

    const renamed = await admin.patch(`/api/role/${role.id}`, { name: 'Case manager' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Fields left out stay as they were.
    expect(renamed.json()).toEqual({ ...role, name: 'Case manager' });
    const translated = await admin.patch(`/api/role/${role.id}`, { translations: [] });
    expect(translated.json()).toEqual({ ...role, name: 'Case manager', translations: [] });

    const deleted = await admin.delete(`/api/role/${role.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await admin.get(`/api/role/${role.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/role/${role.id}`)).statusCode).toBe(404);
  });

  test('lists by name with paging and search, only of the environment', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'alpha 2'])
      await buildRole(t.db, environment.id, name);
    await buildRole(t.db, otherEnvironment.id, 'Alpha elsewhere');

    const first = await admin.get(`/api/role?environment=${environment.id}&limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json().pager).toEqual({ current: 0, pages: 3, items: 5, limit: 2 });
    expect(first.json().results.map((r: { name: string }) => r.name)).toEqual(['Alpha', 'alpha 2']);
    const last = await admin.get(`/api/role?environment=${environment.id}&limit=2&page=2`);
    expect(last.json().results.map((r: { name: string }) => r.name)).toEqual(['delta']);

    const found = await admin.get(`/api/role?environment=${environment.id}&search=ALPHA`);
    expect(found.json().results.map((r: { name: string }) => r.name)).toEqual(['Alpha', 'alpha 2']);
    expect(found.json().pager.items).toBe(2);
    const none = await admin.get(`/api/role?environment=${environment.id}&search=%25`);
    expect(none.json().results).toEqual([]);

    const defaults = await admin.get(`/api/role?environment=${environment.id}`);
    expect(defaults.json().pager.limit).toBe(50);
  });

  test('bad parameters and bodies: 400', async () => {
    const { environment, admin } = await adminSetup(t);
    for (const query of [
      '',
      'environment=abc',
      `environment=${environment.id}&limit=201`,
      `environment=${environment.id}&page=-1`,
    ]) {
      const response = await admin.get(`/api/role?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await admin.get('/api/role/abc')).statusCode).toBe(400);
    expect((await admin.get('/api/role/0')).statusCode).toBe(400);
    const empty = await admin.post('/api/role', { environment: environment.id, name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ errors: { name: REQUIRED_MESSAGE } });
  });

  test('names are unique per environment, ignoring case', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    await buildRole(t.db, environment.id, 'Reviewer');
    const taken = await admin.post('/api/role', { environment: environment.id, name: 'reviewer' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ errors: { name: 'A role with this name exists' } });

    const other = await buildRole(t.db, environment.id, 'Other');
    const renamed = await admin.patch(`/api/role/${other.id}`, { name: 'REVIEWER' });
    expect(renamed.json()).toEqual({ errors: { name: 'A role with this name exists' } });
    // Its own name (in another case) is fine, and so is the same name in another environment.
    expect((await admin.patch(`/api/role/${other.id}`, { name: 'OTHER' })).statusCode).toBe(200);
    await buildRole(t.db, otherEnvironment.id, 'Editor');
    expect((await admin.post('/api/role', { environment: environment.id, name: 'Editor' })).statusCode).toBe(
      201,
    );
  });

  test('a role still in use cannot be deleted, and the answer says where', async () => {
    const { environment, admin } = await adminSetup(t);
    const check = async (roleId: number, message: string) => {
      const response = await admin.delete(`/api/role/${roleId}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ errors: { id: message } });
    };
    const entity = await buildDefDossier(t.db, environment.id, { name: 'Client' });

    const memberRole = await buildRole(t.db, environment.id);
    const user = await buildUser(t.db, { username: `anna_${memberRole.id}` });
    await addMember(t.db, environment.id, { user, roleIds: [memberRole.id] });
    await check(memberRole.id, `Used by members anna_${memberRole.id}`);

    const permissionRole = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, permissionRole.id, ['show', 'edit']);
    await check(permissionRole.id, 'Used by permissions on Client');

    const itemRole = await buildRole(t.db, environment.id);
    const field = await buildDefField(t.db, environment.id);
    const dataField = await buildDataField(t.db, entity, field.id);
    await buildDisplayItem(t.db, entity, { dataFieldId: dataField.id, roles: [itemRole.id] });
    await check(itemRole.id, 'Used by display items of Client');

    const visibilityRole = await buildRole(t.db, environment.id);
    await buildDefDossier(t.db, environment.id, { name: 'Secret', visibilityRoles: [visibilityRole.id] });
    await check(visibilityRole.id, 'Used by visibility of Secret');

    const optionRole = await buildRole(t.db, environment.id);
    const status = await buildDefField(t.db, environment.id, { type: 'list', name: 'status' });
    await buildListOption(t.db, status.id, { roles: [optionRole.id] });
    await check(optionRole.id, 'Used by list options of status');

    const everywhere = await buildRole(t.db, environment.id);
    await addMember(t.db, environment.id, {
      user: await buildUser(t.db, { username: `bob_${everywhere.id}` }),
      roleIds: [everywhere.id],
    });
    await buildPermission(t.db, await buildDefDossier(t.db, environment.id, { name: 'Case' }), everywhere.id);
    await buildListOption(t.db, status.id, { roles: [everywhere.id] });
    await check(
      everywhere.id,
      `Used by members bob_${everywhere.id}; permissions on Case; list options of status`,
    );

    // A permission without actions grants nothing and goes with the role.
    const unused = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, unused.id, []);
    expect((await admin.delete(`/api/role/${unused.id}`)).statusCode).toBe(204);
    const left = await t.db.selectFrom('permission').select('id').where('role_id', '=', unused.id).execute();
    expect(left).toEqual([]);
  });

  test('members, other environments and signed-out users are refused on every call', async () => {
    const { environment, member, outsider } = await adminSetup(t);
    const role = await buildRole(t.db, environment.id);
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      refusalOf(label)(await client.get(`/api/role?environment=${environment.id}`), `${label} list`);
      refusalOf(label)(await client.get(`/api/role/${role.id}`), `${label} get`);
      refusalOf(label)(
        await client.post('/api/role', { environment: environment.id, name: 'X' }),
        `${label} post`,
      );
      refusalOf(label)(await client.patch(`/api/role/${role.id}`, { name: 'Y' }), `${label} patch`);
      refusalOf(label)(await client.delete(`/api/role/${role.id}`), `${label} delete`);
    }
    expect(
      (await t.db.selectFrom('role').select('name').where('id', '=', role.id).executeTakeFirst())?.name,
    ).toBe(role.name);
    const anonymous = t.client();
    expect((await anonymous.get(`/api/role?environment=${environment.id}`)).statusCode).toBe(401);
    expect((await anonymous.get(`/api/role/${role.id}`)).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/role/${role.id}`)).statusCode).toBe(401);
  });

  test('a super admin may manage roles of any environment', async () => {
    const { client } = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const environment = await buildEnvironment(t.db);
    const created = await client.post('/api/role', { environment: environment.id, name: 'Boss' });
    expect(created.statusCode).toBe(201);
    expect((await client.get(`/api/role?environment=${environment.id}`)).json().pager.items).toBe(1);
  });
});
