import { randomUUID } from 'node:crypto';
import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDossier,
  buildLink,
  buildPermission,
} from '../../../test/entity-factories';
import { adminSetup, expectForbidden, refusalOf } from '../../../test/entity-test-setup';
import { buildDefDossier, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const translation = (name: string) => ({
  culture: 'en_GB',
  name,
  name_singular: name,
  name_plural: `${name}s`,
});

describe('/api/defdossier', () => {
  test('create (with its main tab), read, update and delete', async () => {
    const { environment, admin } = await adminSetup(t);
    const role = await buildRole(t.db, environment.id);
    const uuid = randomUUID();
    const created = await admin.post('/api/defdossier', {
      environment: environment.id,
      uuid,
      translations: [translation('Client')],
      visibility_roles: [role.id],
      settings: { add_continue: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const entity = created.json();
    expect(entity).toEqual({
      id: expect.any(Number),
      uuid,
      environment_id: environment.id,
      type: 'main',
      rank: 0,
      visibility_roles: [role.id],
      archivable: false,
      translations: [translation('Client')],
      settings: { add_continue: true },
    });
    const positions = await t.db
      .selectFrom('display_position')
      .select(['type', 'translations', 'environment_id'])
      .where('def_dossier_id', '=', entity.id)
      .execute();
    expect(positions).toEqual([
      {
        type: 'main_content',
        translations: [{ culture: 'en_GB', name: 'General' }],
        environment_id: environment.id,
      },
    ]);

    expect((await admin.get(`/api/defdossier/${entity.id}`)).json()).toEqual({
      ...entity,
      abilities: expect.objectContaining({ canShow: true, canCreate: true, canArchive: false }),
    });

    const patched = await admin.patch(`/api/defdossier/${entity.id}`, {
      archivable: true,
      settings: { layout_sidebar: true },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Left-out fields stay; settings are merged key by key.
    expect(patched.json()).toEqual({
      ...entity,
      archivable: true,
      settings: { add_continue: true, layout_sidebar: true },
    });
    const retyped = await admin.patch(`/api/defdossier/${entity.id}`, {
      type: 'hidden',
      rank: 4,
      visibility_roles: [],
      translations: [translation('Customer')],
    });
    expect(retyped.json()).toMatchObject({ type: 'hidden', rank: 4, visibility_roles: [], archivable: true });
    expect(retyped.json().translations).toEqual([translation('Customer')]);

    const duplicate = await admin.post('/api/defdossier', {
      environment: environment.id,
      uuid,
      translations: [translation('Again')],
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({ errors: { uuid: 'An item with this uuid exists' } });

    const deleted = await admin.delete(`/api/defdossier/${entity.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await admin.get(`/api/defdossier/${entity.id}`)).statusCode).toBe(404);
    const left = await t.db
      .selectFrom('display_position')
      .select('id')
      .where('def_dossier_id', '=', entity.id)
      .execute();
    expect(left).toEqual([]);
  });

  test('lists by rank with paging, search on translated names and a type filter', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    await buildDefDossier(t.db, environment.id, { name: 'Client', rank: 2 });
    const caseEntity = await buildDefDossier(t.db, environment.id, { name: 'Case', rank: 1 });
    await t.db
      .updateTable('def_dossier')
      .set({ translations: JSON.stringify([translation('Case')]) })
      .where('id', '=', caseEntity.id)
      .execute();
    await buildDefDossier(t.db, environment.id, { name: 'Invoice', rank: 3, type: 'hidden' });
    await buildDefDossier(t.db, environment.id, { name: '50% off', rank: 4, type: 'other' });
    await buildDefDossier(t.db, otherEnvironment.id, { name: 'Client elsewhere' });
    const names = (body: { results: { translations: { name: string }[] }[] }) =>
      body.results.map((r) => r.translations[0].name);
    const base = `/api/defdossier?environment=${environment.id}`;

    const all = await admin.get(base);
    expect(all.statusCode).toBe(200);
    expect(names(all.json())).toEqual(['Case', 'Client', 'Invoice', '50% off']);
    expect(all.json().pager).toEqual({ current: 0, pages: 1, items: 4, limit: 50 });
    const paged = await admin.get(`${base}&limit=3&page=1`);
    expect(names(paged.json())).toEqual(['50% off']);
    expect(paged.json().pager).toEqual({ current: 1, pages: 2, items: 4, limit: 3 });
    expect(names((await admin.get(`${base}&search=CLI`)).json())).toEqual(['Client']);
    // name_plural counts too (Cases), and % is taken literally.
    expect(names((await admin.get(`${base}&search=cases`)).json())).toEqual(['Case']);
    expect(names((await admin.get(`${base}&search=%25`)).json())).toEqual(['50% off']);
    expect(names((await admin.get(`${base}&type=hidden`)).json())).toEqual(['Invoice']);
    expect((await admin.get(`${base}&type=nope`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&limit=501`)).statusCode).toBe(400);
    expect((await admin.get('/api/defdossier')).statusCode).toBe(400);
  });

  test('validation: translations required, visibility roles of the environment', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const missing = await admin.post('/api/defdossier', { environment: environment.id, translations: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: { translations: REQUIRED_MESSAGE } });
    const blank = await admin.post('/api/defdossier', {
      environment: environment.id,
      translations: [{ ...translation('X'), name: ' ' }],
    });
    expect(blank.json()).toEqual({ errors: { 'translations.0.name': REQUIRED_MESSAGE } });

    const foreignRole = await buildRole(t.db, otherEnvironment.id);
    const badRole = await admin.post('/api/defdossier', {
      environment: environment.id,
      translations: [translation('X')],
      visibility_roles: [foreignRole.id],
    });
    expect(badRole.json()).toEqual({ errors: { visibility_roles: `Unknown role ${foreignRole.id}` } });
    const entity = await buildDefDossier(t.db, environment.id);
    const patched = await admin.patch(`/api/defdossier/${entity.id}`, { visibility_roles: [foreignRole.id] });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toEqual({ errors: { visibility_roles: `Unknown role ${foreignRole.id}` } });
    expect((await admin.patch(`/api/defdossier/${entity.id}`, { rank: -1 })).json()).toEqual({
      errors: { rank: 'Must be 0 or more' },
    });
  });

  test('conditions are validated and may only name display items of the entity', async () => {
    const { environment, admin } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const other = await buildDefDossier(t.db, environment.id);
    const field = await buildDefField(t.db, environment.id);
    const own = await buildDisplayItem(t.db, entity, {
      dataFieldId: (await buildDataField(t.db, entity, field.id)).id,
    });
    const second = await buildDisplayItem(t.db, entity, {
      dataFieldId: (await buildDataField(t.db, entity, field.id)).id,
    });
    const foreign = await buildDisplayItem(t.db, other, {
      dataFieldId: (await buildDataField(t.db, other, field.id)).id,
    });
    const condition = (ruleField: number | string, target: number | string) => ({
      rules: [{ type: 'or', fields: [{ field: ruleField, values: ['yes'] }] }],
      actions: [{ type: 'show_fields', values: [target] }],
    });
    const url = `/api/defdossier/${entity.id}`;

    const ok = await admin.patch(url, { settings: { conditions: [condition(own.id, second.uuid)] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings.conditions).toEqual([
      {
        rules: [{ type: 'or', fields: [{ field: own.id, field_method: 'equals', values: ['yes'] }] }],
        actions: [{ type: 'show_fields', values: [second.uuid] }],
      },
    ]);

    const foreignTarget = await admin.patch(url, {
      settings: { conditions: [condition(own.id, foreign.id)] },
    });
    expect(foreignTarget.statusCode).toBe(400);
    expect(foreignTarget.json()).toEqual({
      errors: { 'settings.conditions': `Unknown display item ${foreign.id}` },
    });
    const foreignRule = await admin.patch(url, {
      settings: { conditions: [condition(String(foreign.id), own.id)] },
    });
    expect(foreignRule.json()).toEqual({
      errors: { 'settings.conditions': `Unknown display item ${foreign.id}` },
    });

    const badShape = await admin.patch(url, {
      settings: { conditions: [{ actions: [{ type: 'hide_fields', values: [own.id] }] }] },
    });
    expect(badShape.statusCode).toBe(400);
    expect(Object.keys(badShape.json().errors)).toEqual(['settings.conditions.0.actions.0.type']);
    const notAList = await admin.patch(url, { settings: { conditions: 'x' } });
    expect(Object.keys(notAList.json().errors)).toEqual(['settings.conditions']);

    // A new entity has no display items yet.
    const created = await admin.post('/api/defdossier', {
      environment: environment.id,
      translations: [translation('New')],
      settings: { conditions: [condition(own.id, own.id)] },
    });
    expect(created.json()).toEqual({ errors: { 'settings.conditions': `Unknown display item ${own.id}` } });
    // The rejected patches left the stored conditions alone; null clears them.
    expect((await admin.get(url)).json().settings.conditions).toHaveLength(1);
    expect((await admin.patch(url, { settings: { conditions: null } })).json().settings.conditions).toEqual(
      [],
    );
  });

  test('PATCH /api/defdossier/rank sets ranks of entities of one environment', async () => {
    const { environment, admin, outsider, member, otherEnvironment } = await adminSetup(t);
    const a = await buildDefDossier(t.db, environment.id, { rank: 0 });
    const b = await buildDefDossier(t.db, environment.id, { rank: 1 });
    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    const response = await admin.patch('/api/defdossier/rank', {
      ranks: [
        { id: a.id, rank: 5 },
        { id: b.id, rank: 2 },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().results.map((r: { id: number; rank: number }) => [r.id, r.rank])).toEqual([
      [b.id, 2],
      [a.id, 5],
    ]);
    const mixed = await admin.patch('/api/defdossier/rank', {
      ranks: [
        { id: a.id, rank: 1 },
        { id: foreign.id, rank: 1 },
      ],
    });
    // another tenant's id is answered as an unknown one is
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ errors: { ranks: `Unknown entity ${foreign.id}` } });
    const unknown = await admin.patch('/api/defdossier/rank', {
      ranks: [
        { id: a.id, rank: 1 },
        { id: 999999, rank: 1 },
      ],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ errors: { ranks: 'Unknown entity 999999' } });
    expect((await admin.patch('/api/defdossier/rank', { ranks: [] })).statusCode).toBe(400);
    expect((await admin.patch('/api/defdossier/rank', { ranks: [{ id: a.id, rank: -1 }] })).json()).toEqual({
      errors: { 'ranks.0.rank': 'Must be 0 or more' },
    });
    expectForbidden(await member.patch('/api/defdossier/rank', { ranks: [{ id: a.id, rank: 9 }] }), 'member');
    expect((await outsider.patch('/api/defdossier/rank', { ranks: [{ id: a.id, rank: 9 }] })).json()).toEqual(
      { errors: { ranks: `Unknown entity ${a.id}` } },
    );
    const stored = await t.db
      .selectFrom('def_dossier')
      .select('rank')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(stored.rank).toBe(5);
  });

  test('an entity other entities link to cannot be deleted; otherwise its configuration goes with it', async () => {
    const { environment, admin } = await adminSetup(t);
    const client = await buildDefDossier(t.db, environment.id, { name: 'Client' });
    const caseEntity = await buildDefDossier(t.db, environment.id, { name: 'Case' });
    const invoice = await buildDefDossier(t.db, environment.id, { name: 'Invoice' });
    await buildLink(t.db, caseEntity, client, { name: 'client' });
    await buildLink(t.db, invoice, client, { name: 'customer' });
    await buildLink(t.db, client, client, { name: 'partner' });
    const refused = await admin.delete(`/api/defdossier/${client.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { id: 'Linked from Case.client, Invoice.customer' } });

    // Case links out to Client, and has fields, items and permissions of its own.
    const field = await buildDefField(t.db, environment.id);
    const dataField = await buildDataField(t.db, caseEntity, field.id);
    await buildDisplayItem(t.db, caseEntity, { dataFieldId: dataField.id });
    await buildPermission(t.db, caseEntity, (await buildRole(t.db, environment.id)).id);
    expect((await admin.delete(`/api/defdossier/${caseEntity.id}`)).statusCode).toBe(204);
    for (const table of [
      'def_dossier_def_field',
      'display_item',
      'permission',
      'def_dossier_link',
    ] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('id')
        .where('def_dossier_id', '=', caseEntity.id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    // The base field stays.
    expect(
      await t.db.selectFrom('def_field').select('id').where('id', '=', field.id).executeTakeFirst(),
    ).toBeDefined();
    expect((await admin.delete(`/api/defdossier/${client.id}`)).json()).toEqual({
      errors: { id: 'Linked from Invoice.customer' },
    });
  });

  test('the backlinks an entity’s own links made on other entities do not keep it from being deleted', async () => {
    const { environment, admin } = await adminSetup(t);
    const client = await buildDefDossier(t.db, environment.id, { name: 'Client' });
    const caseEntity = await buildDefDossier(t.db, environment.id, { name: 'Case' });
    const link = (parent: number, child: number, name: string) =>
      admin.post('/api/defdossierlink', {
        environment: environment.id,
        defDossier: parent,
        childDefDossier: child,
        name,
        typeOfLink: 'select',
      });
    // Case -> Client, with its backlink on Client: Case may go, and the backlink with it
    const own = await link(caseEntity.id, client.id, 'client');
    expect(own.statusCode).toBe(201);
    const backlinkId = own.json().back_link_id as number;
    expect(backlinkId).toBeGreaterThan(0);
    // Client -> Case made by the admin, with its backlink on Case: Case is linked from Client
    expect((await link(client.id, caseEntity.id, 'cases')).statusCode).toBe(201);
    const refused = await admin.delete(`/api/defdossier/${caseEntity.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { id: 'Linked from Client.cases' } });

    await t.db
      .deleteFrom('def_dossier_link')
      .where('def_dossier_id', '=', client.id)
      .where('name', '=', 'cases')
      .execute();
    expect((await admin.delete(`/api/defdossier/${caseEntity.id}`)).statusCode).toBe(204);
    const left = await t.db
      .selectFrom('def_dossier_link')
      .select('id')
      .where('id', '=', backlinkId)
      .execute();
    expect(left).toEqual([]);
  });

  test('members, other environments and signed-out users are refused on every call', async () => {
    const { environment, member, outsider } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id, { name: 'Kept' });
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      refusalOf(label)(await client.get(`/api/defdossier?environment=${environment.id}`), `${label} list`);
      refusalOf(label)(await client.get(`/api/defdossier/${entity.id}`), `${label} get`);
      refusalOf(label)(
        await client.post('/api/defdossier', {
          environment: environment.id,
          translations: [translation('X')],
        }),
        `${label} post`,
      );
      refusalOf(label)(
        await client.patch(`/api/defdossier/${entity.id}`, { archivable: true }),
        `${label} patch`,
      );
      refusalOf(label)(await client.delete(`/api/defdossier/${entity.id}`), `${label} delete`);
    }
    const stored = await t.db
      .selectFrom('def_dossier')
      .selectAll()
      .where('id', '=', entity.id)
      .executeTakeFirst();
    expect(stored?.archivable).toBe(false);
    const anonymous = t.client();
    expect((await anonymous.get(`/api/defdossier?environment=${environment.id}`)).statusCode).toBe(401);
    expect((await anonymous.get(`/api/defdossier/${entity.id}`)).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/defdossier/${entity.id}`)).statusCode).toBe(401);
    expect(
      (await anonymous.patch('/api/defdossier/rank', { ranks: [{ id: entity.id, rank: 1 }] })).statusCode,
    ).toBe(401);
  });

  test('bad ids: 400; unknown ids: 404', async () => {
    const { admin } = await adminSetup(t);
    expect((await admin.get('/api/defdossier/abc')).statusCode).toBe(400);
    expect((await admin.patch('/api/defdossier/-3', {})).statusCode).toBe(400);
    expect((await admin.get('/api/defdossier/999999')).statusCode).toBe(404);
    expect((await admin.delete('/api/defdossier/999999')).statusCode).toBe(404);
  });

  test('an entity with dossiers can be deleted; its dossiers and data version go with it', async () => {
    // the data-version trigger wrote a row for the entity being deleted: 500 (found by the fuzz test)
    const { environment, admin } = await adminSetup(t);
    const entity = await buildDefDossier(t.db, environment.id);
    const dossier = await buildDossier(t.db, entity, 'Doomed');
    const deleted = await admin.delete(`/api/defdossier/${entity.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const left = await t.db.selectFrom('content_dossier').select('id').where('id', '=', dossier).execute();
    expect(left).toEqual([]);
    const version = await t.db
      .selectFrom('entity_data_version')
      .select('version')
      .where('def_dossier_id', '=', entity.id)
      .execute();
    expect(version).toEqual([]);
  });
});
