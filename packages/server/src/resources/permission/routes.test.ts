import { NO_ENTITY_ABILITIES, PERMISSION_ACTIONS } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPermission } from '../../../test/entity-factories';
import { adminSetup, expectNotFound, put, refusalOf } from '../../../test/entity-test-setup';
import { addMember, buildDefDossier, buildEnvironment, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { dossierSetup, key } from '../content-dossier/fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('/api/permission', () => {
  test('PUT sets and replaces the actions of a role on an entity; GET lists them', async () => {
    const { environment, admin } = await adminSetup(t);
    const client = await buildDefDossier(t.db, environment.id, { name: 'Client' });
    const other = await buildDefDossier(t.db, environment.id, { name: 'Case' });
    const editors = await buildRole(t.db, environment.id, 'Editors');
    const readers = await buildRole(t.db, environment.id, 'Readers');

    const first = await put(admin, '/api/permission', {
      environment: environment.id,
      defDossier: client.id,
      role: readers.id,
      actions: ['edit', 'show', 'show'],
    });
    expect(first.statusCode, first.body).toBe(200);
    const permission = first.json();
    expect(permission).toEqual({
      id: expect.any(Number),
      def_dossier_id: client.id,
      role_id: readers.id,
      actions: ['show', 'edit'],
    });

    const replaced = await put(admin, '/api/permission', {
      environment: environment.id,
      defDossier: client.id,
      role: readers.id,
      actions: ['show'],
    });
    expect(replaced.json()).toEqual({ ...permission, actions: ['show'] });
    await put(admin, '/api/permission', {
      environment: environment.id,
      defDossier: client.id,
      role: editors.id,
      actions: [...PERMISSION_ACTIONS].reverse(),
    });
    await buildPermission(t.db, other, readers.id, ['create']);

    const listed = await admin.get(`/api/permission?environment=${environment.id}&defDossier=${client.id}`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      results: [
        {
          id: expect.any(Number),
          def_dossier_id: client.id,
          role_id: editors.id,
          actions: [...PERMISSION_ACTIONS],
        },
        { ...permission, actions: ['show'] },
      ],
    });
    const all = await admin.get(`/api/permission?environment=${environment.id}`);
    expect(all.json().results).toHaveLength(3);

    const emptied = await put(admin, '/api/permission', {
      environment: environment.id,
      defDossier: client.id,
      role: readers.id,
      actions: [],
    });
    expect(emptied.json()).toEqual({ ...permission, actions: [] });
  });

  test('the role and the entity must belong to the environment; actions must be known', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const role = await buildRole(t.db, environment.id);
    const foreignEntity = await buildDefDossier(t.db, otherEnvironment.id);
    const foreignRole = await buildRole(t.db, otherEnvironment.id);
    const body = { environment: environment.id, defDossier: entity.id, role: role.id, actions: ['show'] };

    const badRole = await put(admin, '/api/permission', { ...body, role: foreignRole.id });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json()).toEqual({ errors: { role: 'Unknown role' } });
    const badEntity = await put(admin, '/api/permission', { ...body, defDossier: foreignEntity.id });
    expect(badEntity.json()).toEqual({ errors: { defDossier: 'Unknown entity' } });
    const both = await put(admin, '/api/permission', { ...body, defDossier: 999999, role: 999999 });
    expect(both.json()).toEqual({ errors: { defDossier: 'Unknown entity', role: 'Unknown role' } });
    const badAction = await put(admin, '/api/permission', { ...body, actions: ['fly'] });
    expect(badAction.statusCode).toBe(400);
    expect(Object.keys(badAction.json().errors)).toEqual(['actions.0']);
    expect((await admin.get('/api/permission')).statusCode).toBe(400);
    expect((await admin.get(`/api/permission?environment=${environment.id}&defDossier=x`)).statusCode).toBe(
      400,
    );
  });

  test('a permission set by PUT holds on the next call, granted or taken back', async () => {
    const s = await dossierSetup(t);
    const body = { environment: s.environment.id, defDossier: s.client.id, role: s.role.id };
    const create = () =>
      s.member.post('/api/contentdossier', {
        defDossier: s.client.id,
        values: { [key(s.fields.name.item)]: `Jansen ${Math.random()}` },
      });
    // warm every configuration cache of the member's standing first
    await put(s.admin, '/api/permission', { ...body, actions: ['show'] });
    expect((await s.member.get(`/api/defdossier/${s.client.id}/permissions`)).json().actions).toEqual([
      'show',
    ]);
    expect((await create()).statusCode).toBe(403);

    expect((await put(s.admin, '/api/permission', { ...body, actions: ['show', 'create'] })).statusCode).toBe(
      200,
    );
    const created = await create();
    expect(created.statusCode, created.body).toBe(201);
    expect(
      (await s.member.get(`/api/defdossier/${s.client.id}/permissions`)).json().abilities.canCreate,
    ).toBe(true);

    await put(s.admin, '/api/permission', { ...body, actions: ['show'] });
    expect((await create()).statusCode).toBe(403);
  });

  test("the HTML export permission carries the spec's name, export_html", async () => {
    const { environment, admin } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const role = await buildRole(t.db, environment.id);
    const body = { environment: environment.id, defDossier: entity.id, role: role.id };
    const saved = await put(admin, '/api/permission', { ...body, actions: ['export_html'] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().actions).toEqual(['export_html']);
    expect((await put(admin, '/api/permission', { ...body, actions: ['export_hml'] })).statusCode).toBe(400);
  });

  test('members, other environments and signed-out users are refused', async () => {
    const { environment, member, outsider } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const role = await buildRole(t.db, environment.id);
    const body = { environment: environment.id, defDossier: entity.id, role: role.id, actions: ['show'] };
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      refusalOf(label)(await client.get(`/api/permission?environment=${environment.id}`), `${label} list`);
      refusalOf(label)(await put(client, '/api/permission', body), `${label} put`);
    }
    expect(await t.db.selectFrom('permission').select('id').where('role_id', '=', role.id).execute()).toEqual(
      [],
    );
    expect((await t.client().get(`/api/permission?environment=${environment.id}`)).statusCode).toBe(401);
    expect((await put(t.client(), '/api/permission', body)).statusCode).toBe(401);
  });
});

describe('GET /api/defdossier/:id/permissions', () => {
  test("answers the signed-in user's actions: all for admins, their roles' union for members", async () => {
    const { environment, admin, member, memberId, outsider } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const url = `/api/defdossier/${entity.id}/permissions`;

    expect((await admin.get(url)).json()).toEqual({
      def_dossier_id: entity.id,
      actions: [...PERMISSION_ACTIONS],
      abilities: expect.objectContaining({ canShow: true, canEdit: true }),
    });
    expect((await member.get(url)).json()).toEqual({
      def_dossier_id: entity.id,
      actions: [],
      abilities: NO_ENTITY_ABILITIES,
    });

    const readers = await buildRole(t.db, environment.id);
    const editors = await buildRole(t.db, environment.id);
    const others = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, readers.id, ['show', 'export']);
    await buildPermission(t.db, entity, editors.id, ['edit', 'show']);
    await buildPermission(t.db, entity, others.id, ['delete']);
    await t.db
      .updateTable('environment_user')
      .set({ role_ids: [readers.id, editors.id] })
      .where('environment_id', '=', environment.id)
      .where('user_id', '=', memberId)
      .execute();
    const response = await member.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      def_dossier_id: entity.id,
      actions: ['show', 'edit', 'export'],
      // export grants every kind of export
      abilities: {
        ...NO_ENTITY_ABILITIES,
        canShow: true,
        canEdit: true,
        canExport: true,
        canExportCsv: true,
        canExportPdf: true,
        canExportWord: true,
        canExportHtml: true,
      },
    });

    expectNotFound(await outsider.get(url), 'outsider');
    expect((await t.client().get(url)).statusCode).toBe(401);
    expect((await member.get('/api/defdossier/999999/permissions')).statusCode).toBe(404);
    expect((await member.get('/api/defdossier/x/permissions')).statusCode).toBe(400);

    const { client: superAdmin } = await t.signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    expect((await superAdmin.get(url)).json().actions).toEqual([...PERMISSION_ACTIONS]);
  });

  test('archive is an ability only on an archivable entity, for admins and members alike', async () => {
    const { environment, admin, member, memberId } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const role = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, role.id, ['show', 'archive']);
    await addRoles(memberId, environment.id, [role.id]);
    const url = `/api/defdossier/${entity.id}/permissions`;
    const canArchive = async (client: typeof member) => (await client.get(url)).json().abilities.canArchive;
    expect(await canArchive(admin)).toBe(false);
    expect(await canArchive(member)).toBe(false);
    expect((await member.get(url)).json().actions).toContain('archive');
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', entity.id).execute();
    expect(await canArchive(admin)).toBe(true);
    expect(await canArchive(member)).toBe(true);
  });

  test('a member of another environment with a role id that matches gets nothing', async () => {
    const { environment } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const role = await buildRole(t.db, environment.id);
    await buildPermission(t.db, entity, role.id, ['show']);
    const { user, client } = await t.signIn();
    const elsewhere = await buildEnvironment(t.db);
    await addMember(t.db, elsewhere.id, { user, roleIds: [role.id] });
    expectNotFound(await client.get(`/api/defdossier/${entity.id}/permissions`), 'stranger');
  });
});

async function addRoles(userId: number, environmentId: number, roleIds: number[]) {
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: roleIds })
    .where('environment_id', '=', environmentId)
    .where('user_id', '=', userId)
    .execute();
}
