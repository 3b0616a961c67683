import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDefField, buildListOption } from '../../../test/entity-factories';
import { adminSetup, expectForbidden, refusalOf } from '../../../test/entity-test-setup';
import { buildRole } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const texts = (body: { results: { translations: { text: string }[] }[] }) =>
  body.results.map((r) => r.translations[0].text);

describe('/api/deffieldlist', () => {
  test('create, read, update and delete an option', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const role = await buildRole(t.db, environment.id);
    const created = await admin.post('/api/deffieldlist', {
      environment: environment.id,
      defField: field.id,
      color: '#ff8800',
      rank: 2,
      translations: [{ culture: 'en_GB', text: 'Open' }],
      settings: { roles: [role.id], icon: 'star' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const option = created.json();
    expect(option).toEqual({
      id: expect.any(Number),
      uuid: expect.any(String),
      def_field_id: field.id,
      color: '#ff8800',
      rank: 2,
      default: false,
      translations: [{ culture: 'en_GB', text: 'Open' }],
      settings: { roles: [role.id], icon: 'star' },
    });
    expect((await admin.get(`/api/deffieldlist/${option.id}`)).json()).toEqual(option);

    const patched = await admin.patch(`/api/deffieldlist/${option.id}`, {
      color: null,
      translations: [{ culture: 'en_GB', text: 'Opened' }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({
      ...option,
      color: null,
      translations: [{ culture: 'en_GB', text: 'Opened' }],
    });
    // The same base field may be sent again.
    expect(
      (await admin.patch(`/api/deffieldlist/${option.id}`, { defField: field.id, rank: 0 })).json().rank,
    ).toBe(0);

    expect((await admin.delete(`/api/deffieldlist/${option.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/deffieldlist/${option.id}`)).statusCode).toBe(404);
  });

  test('lists the options of a field by rank, with paging and search', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'tree' });
    const other = await buildDefField(t.db, environment.id, { type: 'list' });
    for (const [text, rank] of [
      ['Closed', 3],
      ['Open', 1],
      ['Pending', 2],
    ] as const) {
      await buildListOption(t.db, field.id, { text, rank });
    }
    await buildListOption(t.db, other.id, { text: 'Elsewhere' });
    const base = `/api/deffieldlist?defField=${field.id}`;
    const all = await admin.get(base);
    expect(all.statusCode).toBe(200);
    expect(texts(all.json())).toEqual(['Open', 'Pending', 'Closed']);
    expect(all.json().pager).toEqual({ current: 0, pages: 1, items: 3, limit: 50 });
    const page = await admin.get(`${base}&limit=2&page=1`);
    expect(texts(page.json())).toEqual(['Closed']);
    expect(page.json().pager).toEqual({ current: 1, pages: 2, items: 3, limit: 2 });
    expect(texts((await admin.get(`${base}&search=EN`)).json())).toEqual(['Open', 'Pending']);
    expect((await admin.get(`${base}&limit=501`)).statusCode).toBe(400);
    expect((await admin.get('/api/deffieldlist')).statusCode).toBe(400);
    expect((await admin.get('/api/deffieldlist?defField=999999')).statusCode).toBe(404);
  });

  test('only list and tree base fields of the environment have options', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const text = await buildDefField(t.db, environment.id, { type: 'text' });
    const foreign = await buildDefField(t.db, otherEnvironment.id, { type: 'list' });
    const body = { environment: environment.id, translations: [{ culture: 'en_GB', text: 'A' }] };
    const notList = await admin.post('/api/deffieldlist', { ...body, defField: text.id });
    expect(notList.statusCode).toBe(400);
    expect(notList.json()).toEqual({ errors: { defField: 'Only list and tree fields have options' } });
    const elsewhere = await admin.post('/api/deffieldlist', { ...body, defField: foreign.id });
    expect(elsewhere.json()).toEqual({ errors: { defField: 'Unknown base field' } });
    const noText = await admin.post('/api/deffieldlist', { ...body, defField: text.id, translations: [] });
    expect(noText.json()).toEqual({ errors: { translations: REQUIRED_MESSAGE } });
    const list = await buildDefField(t.db, environment.id, { type: 'list' });
    const badColour = await admin.post('/api/deffieldlist', { ...body, defField: list.id, color: 'red' });
    expect(badColour.json()).toEqual({ errors: { color: 'Use a colour like #ff8800' } });
    const badRank = await admin.post('/api/deffieldlist', { ...body, defField: list.id, rank: -1 });
    expect(badRank.json()).toEqual({ errors: { rank: ENTITY_MESSAGES.notBelowZero } });
  });

  test('the base field of an option is fixed', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const other = await buildDefField(t.db, environment.id, { type: 'list' });
    const option = await buildListOption(t.db, field.id);
    const moved = await admin.patch(`/api/deffieldlist/${option.id}`, { defField: other.id });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({ errors: { defField: ENTITY_MESSAGES.listFieldFixed } });
  });

  test('information text and pre-text are sanitised', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const created = await admin.post('/api/deffieldlist', {
      environment: environment.id,
      defField: field.id,
      translations: [
        {
          culture: 'en_GB',
          text: 'Risky',
          settings: {
            informationtext:
              '<p style="color:red" onclick="x()">Hi <b>there</b><script>alert(1)</script><a href="https://x">link</a></p>',
            pretext:
              '<img src="https://example.test/a.png" width="20" onerror="boom()"><iframe src="x"></iframe>',
          },
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().translations[0].settings).toEqual({
      informationtext: '<p style="color:red">Hi <b>there</b>link</p>',
      // images of other sites go too (they would learn who reads)
      pretext: '<img width="20" />',
    });
    const patched = await admin.patch(`/api/deffieldlist/${created.json().id}`, {
      translations: [
        {
          culture: 'en_GB',
          text: 'Risky',
          settings: { informationtext: '<table border="1" onmouseover="x"></table>' },
        },
      ],
    });
    expect(patched.json().translations[0].settings).toEqual({
      informationtext: '<table border="1"></table>',
    });
  });

  test('one default per field: setting a default clears the others', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const other = await buildDefField(t.db, environment.id, { type: 'list' });
    const first = await buildListOption(t.db, field.id, { isDefault: true });
    const elsewhere = await buildListOption(t.db, other.id, { isDefault: true });
    const created = await admin.post('/api/deffieldlist', {
      environment: environment.id,
      defField: field.id,
      default: true,
      translations: [{ culture: 'en_GB', text: 'New default' }],
    });
    expect(created.json().default).toBe(true);
    const defaults = async (fieldId: number) =>
      (
        await t.db
          .selectFrom('def_field_list')
          .select('id')
          .where('def_field_id', '=', fieldId)
          .where('is_default', '=', true)
          .execute()
      ).map((r) => r.id);
    expect(await defaults(field.id)).toEqual([created.json().id]);
    expect(await defaults(other.id)).toEqual([elsewhere.id]);
    const back = await admin.patch(`/api/deffieldlist/${first.id}`, { default: true });
    expect(back.json().default).toBe(true);
    expect(await defaults(field.id)).toEqual([first.id]);
    await admin.patch(`/api/deffieldlist/${first.id}`, { default: false });
    expect(await defaults(field.id)).toEqual([]);
  });

  test('hidden-for roles must be roles of the environment', async () => {
    const { environment, admin, otherEnvironment } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const foreignRole = await buildRole(t.db, otherEnvironment.id);
    const body = {
      environment: environment.id,
      defField: field.id,
      translations: [{ culture: 'en_GB', text: 'A' }],
      settings: { roles: [foreignRole.id] },
    };
    const created = await admin.post('/api/deffieldlist', body);
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ errors: { 'settings.roles': `Unknown role ${foreignRole.id}` } });
    const option = await buildListOption(t.db, field.id);
    const patched = await admin.patch(`/api/deffieldlist/${option.id}`, {
      settings: { roles: [foreignRole.id] },
    });
    expect(patched.json()).toEqual({ errors: { 'settings.roles': `Unknown role ${foreignRole.id}` } });
    const role = await buildRole(t.db, environment.id);
    const ok = await admin.patch(`/api/deffieldlist/${option.id}`, { settings: { roles: [role.id] } });
    expect(ok.json().settings).toEqual({ roles: [role.id] });
  });

  test('deleting the default_list_option of a field clears that setting', async () => {
    const { environment, admin } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const option = await buildListOption(t.db, field.id);
    await admin.patch(`/api/deffield/${field.id}`, { settings: { default_list_option: option.id } });
    expect((await admin.delete(`/api/deffieldlist/${option.id}`)).statusCode).toBe(204);
    const stored = await t.db
      .selectFrom('def_field')
      .select('settings')
      .where('id', '=', field.id)
      .executeTakeFirst();
    expect(stored?.settings.default_list_option).toBeNull();
  });

  test('PATCH /api/deffieldlist sets ranks of options of one environment', async () => {
    const { environment, admin, member, outsider, otherEnvironment } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const a = await buildListOption(t.db, field.id, { rank: 0, text: 'a' });
    const b = await buildListOption(t.db, field.id, { rank: 1, text: 'b' });
    const foreign = await buildListOption(
      t.db,
      (await buildDefField(t.db, otherEnvironment.id, { type: 'list' })).id,
    );
    const ranked = await admin.patch('/api/deffieldlist', {
      ranks: [
        { id: a.id, rank: 1 },
        { id: b.id, rank: 0 },
      ],
    });
    expect(ranked.statusCode, ranked.body).toBe(200);
    expect(texts(ranked.json())).toEqual(['b', 'a']);
    expect(texts((await admin.get(`/api/deffieldlist?defField=${field.id}`)).json())).toEqual(['b', 'a']);

    // another tenant's id is answered as an unknown one is
    const mixed = await admin.patch('/api/deffieldlist', {
      ranks: [
        { id: a.id, rank: 3 },
        { id: foreign.id, rank: 3 },
      ],
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ errors: { ranks: `Unknown list option ${foreign.id}` } });
    const unknown = await admin.patch('/api/deffieldlist', { ranks: [{ id: 999999, rank: 1 }] });
    expect(unknown.json()).toEqual({ errors: { ranks: 'Unknown list option 999999' } });
    expectForbidden(await member.patch('/api/deffieldlist', { ranks: [{ id: a.id, rank: 5 }] }), 'member');
    expect((await outsider.patch('/api/deffieldlist', { ranks: [{ id: a.id, rank: 5 }] })).json()).toEqual({
      errors: { ranks: `Unknown list option ${a.id}` },
    });
    const stored = await t.db
      .selectFrom('def_field_list')
      .select('rank')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(stored.rank).toBe(1);
  });

  test('members, other environments and signed-out users are refused on every call', async () => {
    const { environment, member, outsider } = await adminSetup(t);
    const field = await buildDefField(t.db, environment.id, { type: 'list' });
    const option = await buildListOption(t.db, field.id, { text: 'kept' });
    for (const [client, label] of [
      [member, 'member'],
      [outsider, 'outsider'],
    ] as const) {
      refusalOf(label)(await client.get(`/api/deffieldlist?defField=${field.id}`), `${label} list`);
      refusalOf(label)(await client.get(`/api/deffieldlist/${option.id}`), `${label} get`);
      refusalOf(label)(
        await client.post('/api/deffieldlist', {
          environment: environment.id,
          defField: field.id,
          translations: [{ culture: 'en_GB', text: 'x' }],
        }),
        `${label} post`,
      );
      refusalOf(label)(await client.patch(`/api/deffieldlist/${option.id}`, { rank: 7 }), `${label} patch`);
      refusalOf(label)(await client.delete(`/api/deffieldlist/${option.id}`), `${label} delete`);
    }
    const stored = await t.db
      .selectFrom('def_field_list')
      .selectAll()
      .where('id', '=', option.id)
      .executeTakeFirst();
    expect(stored?.rank).toBe(0);
    const anonymous = t.client();
    expect((await anonymous.get(`/api/deffieldlist?defField=${field.id}`)).statusCode).toBe(401);
    expect((await anonymous.get(`/api/deffieldlist/${option.id}`)).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/deffieldlist/${option.id}`)).statusCode).toBe(401);
    // the sign-in check comes before the input is read: a bad id tells an anonymous caller nothing
    expect((await anonymous.get('/api/deffieldlist/abc')).statusCode).toBe(401);
  });
});
