import { randomUUID } from 'node:crypto';
import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildListOption,
} from '../../../test/entity-factories';
import { adminSetup, refusalOf } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const names = (body: { results: { name: string }[] }) => body.results.map((r) => r.name);

describe('/api/deffield', () => {
  test('create with normalised settings, read, update and delete', async () => {
    const { environment, admin } = await adminSetup(t);
    const uuid = randomUUID();
    const created = await admin.post('/api/deffield', {
      environment: environment.id,
      uuid,
      name: ' first_name ',
      type: 'text',
      settings: { size: 40, unknown_key: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const field = created.json();
    expect(field).toEqual({
      id: expect.any(Number),
      uuid,
      environment_id: environment.id,
      name: 'first_name',
      type: 'text',
      settings: { regex: '', size: 40, validators: [], phone_number: false },
      rank: 0,
      def_field_lists: [],
      usage: [],
    });
    expect((await admin.get(`/api/deffield/${field.id}`)).json()).toEqual(field);

    const renamed = await admin.patch(`/api/deffield/${field.id}`, { name: 'given_name', rank: 3 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Settings left out stay as they are.
    expect(renamed.json()).toEqual({ ...field, name: 'given_name', rank: 3 });

    // An unplaced field may change type; its settings become the new type's.
    const retyped = await admin.patch(`/api/deffield/${field.id}`, { type: 'amount' });
    expect(retyped.json()).toMatchObject({
      type: 'amount',
      settings: { valueType: 'number', decimals: 2, currency: 'EUR', show_slider: false, max_slider: 1000 },
    });
    const resettled = await admin.patch(`/api/deffield/${field.id}`, { settings: { decimals: 0 } });
    expect(resettled.json().settings).toMatchObject({ decimals: 0, valueType: 'number' });

    const duplicate = await admin.post('/api/deffield', {
      environment: environment.id,
      uuid,
      name: 'x',
      type: 'text',
    });
    expect(duplicate.json()).toEqual({ errors: { uuid: 'An item with this uuid exists' } });

    expect((await admin.delete(`/api/deffield/${field.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/deffield/${field.id}`)).statusCode).toBe(404);
  });

  test('lists with paging, search by name, type and uuid filters', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const made = [];
    for (const [name, type] of [
      ['status', 'list'],
      ['Birth_date', 'date'],
      ['category', 'tree'],
      ['amount_due', 'amount'],
      ['100%_done', 'text'],
    ] as const) {
      made.push(await buildDefField(t.db, environment.id, { name, type }));
    }
    await buildDefField(t.db, otherEnvironment.id, { name: 'status' });
    const base = `/api/deffield?environment=${environment.id}`;

    const all = await admin.get(base);
    expect(all.statusCode).toBe(200);
    expect(names(all.json())).toEqual(['100%_done', 'amount_due', 'Birth_date', 'category', 'status']);
    expect(all.json().pager).toEqual({ current: 0, pages: 1, items: 5, limit: 50 });
    const page = await admin.get(`${base}&limit=2&page=1`);
    expect(names(page.json())).toEqual(['Birth_date', 'category']);
    expect(page.json().pager).toEqual({ current: 1, pages: 3, items: 5, limit: 2 });
    expect(names((await admin.get(`${base}&search=BIRTH`)).json())).toEqual(['Birth_date']);
    expect(names((await admin.get(`${base}&search=%25`)).json())).toEqual(['100%_done']);
    expect(names((await admin.get(`${base}&type=list`)).json())).toEqual(['status']);
    expect(names((await admin.get(`${base}&type=list,tree`)).json())).toEqual(['category', 'status']);
    expect(names((await admin.get(`${base}&type=list&type=date`)).json())).toEqual(['Birth_date', 'status']);
    expect(names((await admin.get(`${base}&uuid=${made[3].uuid}`)).json())).toEqual(['amount_due']);
    expect((await admin.get(`${base}&type=bogus`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&uuid=nope`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&limit=501`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&limit=500`)).statusCode).toBe(200);
    expect((await admin.get('/api/deffield')).statusCode).toBe(400);
  });

  test('presents list options by rank and usage with entity names and placement', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list', name: 'status' });
    const second = await buildListOption(t.db, field.id, { text: 'Closed', rank: 2 });
    const first = await buildListOption(t.db, field.id, {
      text: 'Open',
      rank: 1,
      isDefault: true,
      color: '#00ff00',
    });
    const client = await buildDefDossier(t.db, environment.id, { name: 'Client', rank: 1 });
    const caseEntity = await buildDefDossier(t.db, environment.id, { name: 'Case', rank: 2 });
    const clientStatus = await buildDataField(t.db, client, field.id, { name: 'client_status' });
    const caseStatus = await buildDataField(t.db, caseEntity, field.id, { name: 'case_status' });
    await buildDisplayItem(t.db, caseEntity, { dataFieldId: caseStatus.id });

    const response = await admin.get(`/api/deffield/${field.id}`);
    expect(response.json().def_field_lists).toEqual([
      {
        id: first.id,
        uuid: first.uuid,
        def_field_id: field.id,
        color: '#00ff00',
        rank: 1,
        default: true,
        translations: [{ culture: 'en_GB', text: 'Open' }],
        settings: { roles: [] },
      },
      expect.objectContaining({ id: second.id, default: false }),
    ]);
    expect(response.json().usage).toEqual([
      {
        def_dossier_id: client.id,
        def_dossier_name: 'Client',
        def_dossier_def_field_id: clientStatus.id,
        def_dossier_def_field_name: 'client_status',
        placed: false,
      },
      {
        def_dossier_id: caseEntity.id,
        def_dossier_name: 'Case',
        def_dossier_def_field_id: caseStatus.id,
        def_dossier_def_field_name: 'case_status',
        placed: true,
      },
    ]);
    const listed = await admin.get(`/api/deffield?environment=${environment.id}&type=list`);
    expect(listed.json().results[0].usage).toHaveLength(2);
    expect(listed.json().results[0].def_field_lists).toHaveLength(2);
  });

  test('settings are validated by the type: errors keyed settings.<key>', async () => {
    const { environment, admin } = await adminSetup(t);
    const post = (type: string, settings: unknown) =>
      admin.post('/api/deffield', { environment: environment.id, name: 'f', type, settings });

    const badSize = await post('text', { size: 'big' });
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json()).toEqual({
      errors: { 'settings.size': 'Invalid input: expected number, received string' },
    });
    const badFormula = await post('calc', { formula: '1 +' });
    expect(badFormula.json()).toEqual({ errors: { 'settings.formula': 'Unexpected end of formula (at 4)' } });
    const good = await post('calc', { formula: '1 + 2' });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().settings).toEqual({ formula: '1 + 2', show_slider: false, max_slider: 1000 });
    const badType = await post('colour', {});
    expect(badType.json()).toEqual({ errors: { type: ENTITY_MESSAGES.unknownFieldType } });
    const missing = await admin.post('/api/deffield', {
      environment: environment.id,
      name: '',
      type: 'text',
    });
    expect(missing.json()).toEqual({ errors: { name: REQUIRED_MESSAGE } });

    const patched = await admin.patch(`/api/deffield/${good.json().id}`, { settings: { formula: '(' } });
    expect(patched.statusCode).toBe(400);
    expect(Object.keys(patched.json().errors)).toEqual(['settings.formula']);

    // default_list_option must be one of the field's options.
    const list = await buildDefField(t.db, environment.id, { type: 'list' });
    const other = await buildDefField(t.db, environment.id, { type: 'list' });
    const own = await buildListOption(t.db, list.id);
    const foreign = await buildListOption(t.db, other.id);
    const wrong = await admin.patch(`/api/deffield/${list.id}`, {
      settings: { default_list_option: foreign.id },
    });
    expect(wrong.json()).toEqual({
      errors: { 'settings.default_list_option': `Unknown list option ${foreign.id}` },
    });
    const right = await admin.patch(`/api/deffield/${list.id}`, {
      settings: { default_list_option: own.id },
    });
    expect(right.json().settings.default_list_option).toBe(own.id);
  });

  test('a placed field keeps its type and cannot be deleted; a used one cannot be deleted', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { name: 'name' });
    const client = await buildDefDossier(t.db, environment.id, { name: 'Client', rank: 1 });
    const caseEntity = await buildDefDossier(t.db, environment.id, { name: 'Case', rank: 2 });
    await buildDataField(t.db, client, field.id, { name: 'first_name' });
    const owner = await buildDataField(t.db, caseEntity, field.id, { name: 'owner' });

    const used = await admin.delete(`/api/deffield/${field.id}`);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({ errors: { id: 'Used by Client.first_name, Case.owner' } });
    expect((await admin.patch(`/api/deffield/${field.id}`, { type: 'textarea' })).statusCode).toBe(200);

    await buildDisplayItem(t.db, caseEntity, { dataFieldId: owner.id });
    const retype = await admin.patch(`/api/deffield/${field.id}`, { type: 'text' });
    expect(retype.statusCode).toBe(400);
    expect(retype.json()).toEqual({ errors: { type: ENTITY_MESSAGES.placedFieldType } });
    // The same type, a new name and settings are fine.
    const same = await admin.patch(`/api/deffield/${field.id}`, { type: 'textarea', name: 'full_name' });
    expect(same.statusCode, same.body).toBe(200);
    const placed = await admin.delete(`/api/deffield/${field.id}`);
    expect(placed.statusCode).toBe(400);
    expect(placed.json()).toEqual({ errors: { id: ENTITY_MESSAGES.placedFieldDelete } });

    // Options go with a deleted field.
    const list = await buildDefField(t.db, environment.id, { type: 'list' });
    const option = await buildListOption(t.db, list.id);
    expect((await admin.delete(`/api/deffield/${list.id}`)).statusCode).toBe(204);
    expect(
      await t.db.selectFrom('def_field_list').select('id').where('id', '=', option.id).execute(),
    ).toEqual([]);
  });

  test('members, other environments and signed-out users are refused on every call', async () => {
    const { environment, member, outsider } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { name: 'kept' });
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      refusalOf(label)(await client.get(`/api/deffield?environment=${environment.id}`), `${label} list`);
      refusalOf(label)(await client.get(`/api/deffield/${field.id}`), `${label} get`);
      refusalOf(label)(
        await client.post('/api/deffield', { environment: environment.id, name: 'x', type: 'text' }),
        `${label} post`,
      );
      refusalOf(label)(
        await client.patch(`/api/deffield/${field.id}`, { name: 'changed' }),
        `${label} patch`,
      );
      refusalOf(label)(await client.delete(`/api/deffield/${field.id}`), `${label} delete`);
    }
    const stored = await t.db
      .selectFrom('def_field')
      .select('name')
      .where('id', '=', field.id)
      .executeTakeFirst();
    expect(stored?.name).toBe('kept');
    const anonymous = t.client();
    expect((await anonymous.get(`/api/deffield?environment=${environment.id}`)).statusCode).toBe(401);
    expect((await anonymous.patch(`/api/deffield/${field.id}`, { name: 'x' })).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/deffield/${field.id}`)).statusCode).toBe(401);
  });

  test('bad ids: 400; unknown ids: 404', async () => {
    const { admin } = await adminSetup(t);
    expect((await admin.get('/api/deffield/abc')).statusCode).toBe(400);
    expect((await admin.delete('/api/deffield/0')).statusCode).toBe(400);
    expect((await admin.get('/api/deffield/999999')).statusCode).toBe(404);
    expect((await admin.patch('/api/deffield/999999', { name: 'x' })).statusCode).toBe(404);
  });
});
