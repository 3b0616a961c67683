import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildListOption,
  buildPermission,
  setItemRoles,
} from '../../../test/entity-factories';
import { adminSetup, expectNotFound, refusalOf } from '../../../test/entity-test-setup';
import { addMember, buildDefDossier, buildEnvironment, buildRole, buildUser } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { dossierSetup, key } from '../content-dossier/fixture';

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
    const check = async (roleId: number, usedBy: string) => {
      const response = await admin.delete(`/api/role/${roleId}`);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ errors: { id: `This role is still in use: ${usedBy}` } });
    };
    const entity = await buildDefDossier(t.db, environment.id, { name: 'Client' });

    const memberRole = await buildRole(t.db, environment.id);
    const user = await buildUser(t.db, { username: `anna_${memberRole.id}` });
    await addMember(t.db, environment.id, { user, roleIds: [memberRole.id] });
    await check(memberRole.id, `members anna_${memberRole.id}`);

    const permissionRole = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, permissionRole.id, ['show', 'edit']);
    await check(permissionRole.id, 'permissions on Client');

    const itemRole = await buildRole(t.db, environment.id);
    const field = await buildDefField(t.db, environment.id);
    const dataField = await buildDataField(t.db, entity, field.id);
    await buildDisplayItem(t.db, entity, { dataFieldId: dataField.id, roles: [itemRole.id] });
    await check(itemRole.id, 'display items of Client');

    const fieldRole = await buildRole(t.db, environment.id);
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ roles: [fieldRole.id] })
      .where('id', '=', dataField.id)
      .execute();
    await check(fieldRole.id, `data fields ${dataField.name} of Client`);

    const visibilityRole = await buildRole(t.db, environment.id);
    await buildDefDossier(t.db, environment.id, { name: 'Secret', visibilityRoles: [visibilityRole.id] });
    await check(visibilityRole.id, 'visibility of Secret');

    const optionRole = await buildRole(t.db, environment.id);
    const status = await buildDefField(t.db, environment.id, { type: 'list', name: 'status' });
    await buildListOption(t.db, status.id, { roles: [optionRole.id] });
    await check(optionRole.id, 'list options of status');

    const everywhere = await buildRole(t.db, environment.id);
    await addMember(t.db, environment.id, {
      user: await buildUser(t.db, { username: `bob_${everywhere.id}` }),
      roleIds: [everywhere.id],
    });
    await buildPermission(t.db, await buildDefDossier(t.db, environment.id, { name: 'Case' }), everywhere.id);
    await buildListOption(t.db, status.id, { roles: [everywhere.id] });
    await check(everywhere.id, `members bob_${everywhere.id}; permissions on Case; list options of status`);

    // A permission without actions grants nothing and goes with the role.
    const unused = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, unused.id, []);
    expect((await admin.delete(`/api/role/${unused.id}`)).statusCode).toBe(204);
    const left = await t.db.selectFrom('permission').select('id').where('role_id', '=', unused.id).execute();
    expect(left).toEqual([]);
  });

  test('members, other environments and signed-out users are refused on every call', async () => {
    const { environment, member, memberId, outsider } = await adminSetup(t);
    const role = await buildRole(t.db, environment.id);
    // the member holds the role: detaching it would change their membership
    await t.db
      .updateTable('environment_user')
      .set({ role_ids: [role.id] })
      .where('environment_id', '=', environment.id)
      .where('user_id', '=', memberId)
      .execute();
    const calls = (client: TestClient) => ({
      list: () => client.get(`/api/role?environment=${environment.id}`),
      get: () => client.get(`/api/role/${role.id}`),
      usage: () => client.get(`/api/role/${role.id}/usage`),
      post: () => client.post('/api/role', { environment: environment.id, name: 'X' }),
      patch: () => client.patch(`/api/role/${role.id}`, { name: 'Y' }),
      delete: () => client.delete(`/api/role/${role.id}`),
      detach: () => client.delete(`/api/role/${role.id}?detach=true`),
    });
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      for (const [name, call] of Object.entries(calls(client)))
        refusalOf(label)(await call(), `${label} ${name}`);
    }
    for (const [name, call] of Object.entries(calls(t.client()))) {
      const response = await call();
      expect(response.statusCode, `anonymous ${name}`).toBe(401);
    }
    expect(
      (await t.db.selectFrom('role').select('name').where('id', '=', role.id).executeTakeFirst())?.name,
    ).toBe(role.name);
    expect(await t.db.selectFrom('role').select('id').where('name', '=', 'X').execute()).toEqual([]);
    const membership = await t.db
      .selectFrom('environment_user')
      .select('role_ids')
      .where('environment_id', '=', environment.id)
      .where('user_id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(membership.role_ids).toEqual([role.id]);
  });

  test('GET usage names every place that uses the role', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const role = await buildRole(t.db, environment.id);
    const free = await buildRole(t.db, environment.id);
    const empty = {
      members: [],
      member_count: 0,
      permissions: [],
      visibility: [],
      data_fields: [],
      display_items: [],
      list_options: [],
    };
    expect((await admin.get(`/api/role/${free.id}/usage`)).json()).toEqual(empty);

    const client = await buildDefDossier(t.db, environment.id, { name: 'Client' });
    const secret = await buildDefDossier(t.db, environment.id, {
      name: 'Secret',
      visibilityRoles: [role.id],
    });
    const users = [];
    for (const name of ['zoe', 'anna']) {
      const user = await buildUser(t.db, { username: `${name}_${role.id}` });
      await addMember(t.db, environment.id, { user, roleIds: [free.id, role.id] });
      users.push(user);
    }
    await buildPermission(t.db, client, role.id, ['show']);
    const base = await buildDefField(t.db, environment.id);
    const dataField = await buildDataField(t.db, client, base.id, { name: 'bsn' });
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ roles: [role.id] })
      .where('id', '=', dataField.id)
      .execute();
    const item = await buildDisplayItem(t.db, client, {
      dataFieldId: dataField.id,
      view: 'list',
      roles: [role.id],
    });
    const status = await buildDefField(t.db, environment.id, { type: 'list', name: 'status' });
    const option = await buildListOption(t.db, status.id, { text: 'Closed', roles: [free.id, role.id] });

    const response = await admin.get(`/api/role/${role.id}/usage`);
    expect(response.statusCode, response.body).toBe(200);
    const entity = (row: { id: number; translations: unknown }) => ({
      id: row.id,
      translations: row.translations,
    });
    expect(response.json()).toEqual({
      members: [
        { id: users[1].id, username: `anna_${role.id}` },
        { id: users[0].id, username: `zoe_${role.id}` },
      ],
      member_count: 2,
      permissions: [entity(client)],
      visibility: [entity(secret)],
      data_fields: [{ id: dataField.id, name: 'bsn', def_dossier: entity(client) }],
      display_items: [{ id: item.id, name: 'bsn', view: 'list', def_dossier: entity(client) }],
      list_options: [{ id: option.id, text: 'Closed', def_field: { id: status.id, name: 'status' } }],
    });

    // another environment's role, an unknown one: not found, as alike as can be
    const foreign = await buildRole(t.db, otherEnvironment.id);
    expectNotFound(await admin.get(`/api/role/${foreign.id}/usage`), 'foreign usage');
    expectNotFound(await admin.get('/api/role/2147483000/usage'), 'unknown usage');
    expect((await admin.get('/api/role/abc/usage')).statusCode).toBe(400);
  });

  test('DELETE with detach takes the role out of every place in one go, keeping who sees what', async () => {
    const s = await dossierSetup(t);
    const env = s.environment.id;
    const gone = await buildRole(t.db, env, 'Gone');
    const other = await buildRole(t.db, env, 'Other');
    // the member holds `gone` besides the setup's role
    await t.db
      .updateTable('environment_user')
      .set({ role_ids: [s.role.id, gone.id] })
      .where('environment_id', '=', env)
      .where('user_id', '=', s.memberId)
      .execute();
    await s.grant(s.client, ['show', 'create']);
    await buildPermission(t.db, s.client, gone.id, ['show', 'delete']);
    await t.db
      .updateTable('def_dossier')
      .set({ visibility_roles: [gone.id, other.id] })
      .where('id', '=', s.project.id)
      .execute();
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ roles: [gone.id] })
      .where('id', '=', s.fields.notes.dataField.id)
      .execute();
    await buildListOption(t.db, s.fields.list.base.id, { text: 'Grey', roles: [gone.id, other.id] });
    // summary: name for everyone but holders of Gone, number only for holders of Other
    const summaryItems = await t.db
      .selectFrom('display_item')
      .select(['id', 'def_dossier_def_field_id'])
      .where('def_dossier_id', '=', s.client.id)
      .where('view', '=', 'summary')
      .execute();
    const summaryItem = (field: { id: number }) =>
      summaryItems.find((item) => item.def_dossier_def_field_id === field.id)?.id as number;
    await setItemRoles(t.db, summaryItem(s.fields.name.dataField), 'EXCLUDE_SELECTED_ROLES', [gone.id]);
    await setItemRoles(t.db, summaryItem(s.fields.auto.dataField), 'INCLUDE_SELECTED_ROLES', [other.id]);
    const created = await s.admin.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [key(s.fields.name.item)]: 'Jansen' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const summaryFor = async (client: TestClient) => {
      const list = await client.get(`/api/contentdossier?defDossier=${s.client.id}&environment=${env}`);
      expect(list.statusCode, list.body).toBe(200);
      return list.json().results.dossiers.map((d: { summary: string }) => d.summary);
    };
    // holding Gone, the member sees neither item
    expect(await summaryFor(s.member)).toEqual([`#${created.json().id}`]);

    const refused = await s.admin.delete(`/api/role/${gone.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.id).toMatch(/^This role is still in use: members /);

    const deleted = await s.admin.delete(`/api/role/${gone.id}?detach=true`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.db.selectFrom('role').select('id').where('id', '=', gone.id).execute()).toEqual([]);
    const membership = await t.db
      .selectFrom('environment_user')
      .select('role_ids')
      .where('environment_id', '=', env)
      .where('user_id', '=', s.memberId)
      .executeTakeFirstOrThrow();
    expect(membership.role_ids).toEqual([s.role.id]);
    expect(await t.db.selectFrom('permission').select('id').where('role_id', '=', gone.id).execute()).toEqual(
      [],
    );
    const project = await t.db
      .selectFrom('def_dossier')
      .select('visibility_roles')
      .where('id', '=', s.project.id)
      .executeTakeFirstOrThrow();
    expect(project.visibility_roles).toEqual([other.id]);
    const notes = await t.db
      .selectFrom('def_dossier_def_field')
      .select('roles')
      .where('id', '=', s.fields.notes.dataField.id)
      .executeTakeFirstOrThrow();
    expect(notes.roles).toEqual([]);
    const grey = await t.db
      .selectFrom('def_field_list')
      .select('settings')
      .where('def_field_id', '=', s.fields.list.base.id)
      .where(sql<boolean>`translations->0->>'text' = 'Grey'`)
      .executeTakeFirstOrThrow();
    expect(grey.settings.roles).toEqual([other.id]);
    const items = await t.db
      .selectFrom('display_item')
      .select(['id', 'roles'])
      .where(
        'id',
        'in',
        summaryItems.map((i) => i.id),
      )
      .execute();
    expect(Object.fromEntries(items.map((i) => [i.id, i.roles]))).toEqual({
      [summaryItem(s.fields.name.dataField)]: [],
      [summaryItem(s.fields.auto.dataField)]: [other.id],
    });
    // no longer holding Gone, the member reads the name: the stored summaries were rewritten
    expect(await summaryFor(s.member)).toEqual(['Jansen']);
    // and keeps what their own role allows
    const mine = await s.member.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [key(s.fields.name.item)]: 'Pietersen' },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    // a role used nowhere is deleted with detach as without it
    const unused = await buildRole(t.db, env);
    expect((await s.admin.delete(`/api/role/${unused.id}?detach=true`)).statusCode).toBe(204);
    expect((await s.admin.delete(`/api/role/${other.id}?detach=maybe`)).statusCode).toBe(400);
    const foreign = await buildRole(t.db, (await buildEnvironment(t.db)).id);
    expectNotFound(await s.admin.delete(`/api/role/${foreign.id}?detach=true`), 'foreign detach');
    expect(await t.db.selectFrom('role').select('id').where('id', '=', foreign.id).execute()).toHaveLength(1);
  });

  test('a super admin may manage roles of any environment', async () => {
    const { client } = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const environment = await buildEnvironment(t.db);
    const created = await client.post('/api/role', { environment: environment.id, name: 'Boss' });
    expect(created.statusCode).toBe(201);
    expect((await client.get(`/api/role?environment=${environment.id}`)).json().pager.items).toBe(1);
  });
});
