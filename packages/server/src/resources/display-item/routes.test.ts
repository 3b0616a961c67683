import { randomUUID } from 'node:crypto';
import { ENTITY_MESSAGES, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
  buildLink,
} from '../../../test/entity-factories';
import { adminSetup, expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildDefDossier, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { NOT_IN_ENVIRONMENT, NOT_OF_ENTITY } from '../def-dossier-def-field/shared';
import { DISPLAY_ITEM_MESSAGES } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function setup() {
  const s = await adminSetup(t);
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Client' });
  const text = await buildDefField(t.db, s.environment.id, { type: 'text', name: 'Text' });
  const field = await buildDataField(t.db, entity, text.id, { name: 'first_name' });
  const general = await buildDisplayPosition(t.db, entity, {
    name: 'General',
    type: 'main_content',
    rank: 1,
  });
  const base = { environment: s.environment.id, defDossier: entity.id };
  return { ...s, entity, text, field, general, base };
}

const ids = (body: { results: { id: number }[] }) => body.results.map((r) => r.id);

describe('/api/displayitem', () => {
  test('create, read, update and delete; rowspan is always 0', async () => {
    const { environment, admin, entity, text, field, general, base } = await setup();
    const role = await buildRole(t.db, environment.id);
    const uuid = randomUUID();
    const created = await admin.post('/api/displayitem', {
      ...base,
      uuid,
      displayPosition: general.id,
      defDossierDefField: field.id,
      view: 'show/edit',
      col: 2,
      rank: 3,
      colspan: 6,
      rowspan: 12,
      roles: [role.id, role.id],
      permissions_type: 'INCLUDE_SELECTED_ROLES',
      defaultPermissionType: '',
      translations: [{ culture: 'en_GB', name: 'First name' }],
      settings: { show_info_direct: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json();
    expect(item).toEqual({
      id: expect.any(Number),
      uuid,
      def_dossier_id: entity.id,
      display_position_id: general.id,
      def_dossier_def_field: {
        id: field.id,
        uuid: field.uuid,
        environment_id: environment.id,
        def_dossier_id: entity.id,
        name: 'first_name',
        obligatory: false,
        locked: false,
        roles: [],
        permissions_type: 'EXCLUDE_SELECTED_ROLES',
        settings: {},
        def_field: { id: text.id, uuid: text.uuid, name: 'Text', type: 'text', settings: {} },
      },
      def_dossier_link: null,
      view: 'show/edit',
      col: 2,
      rank: 3,
      colspan: 6,
      rowspan: 0,
      roles: [{ role: { id: role.id } }],
      permissions_type: 'INCLUDE_SELECTED_ROLES',
      translations: [{ culture: 'en_GB', name: 'First name' }],
      settings: { show_info_direct: true },
    });
    expect((await admin.get(`/api/displayitem/${item.id}`)).json()).toEqual(item);

    const patched = await admin.patch(`/api/displayitem/${item.id}`, {
      col: 0,
      colspan: 12,
      rowspan: 3,
      roles: [],
      displayPosition: general.id,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Left-out fields (rank, translations, settings, permissions_type) stay.
    expect(patched.json()).toEqual({ ...item, col: 0, colspan: 12, roles: [] });

    expect((await admin.delete(`/api/displayitem/${item.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/displayitem/${item.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/displayitem/${item.id}`)).statusCode).toBe(404);
  });

  test('information text and pre-text are sanitised', async () => {
    const { admin, field, base } = await setup();
    const hostile =
      '<p onclick="steal()">Hi <b>there</b><script>alert(1)</script>' +
      '<img src="javascript:alert(1)" onerror="alert(2)"><a href="javascript:alert(3)">link</a></p>';
    const created = await admin.post('/api/displayitem', {
      ...base,
      defDossierDefField: field.id,
      view: 'list',
      translations: [
        {
          culture: 'en_GB',
          name: 'Name',
          settings: {
            informationtext: hostile,
            pretext: '<div style="color: red" class="x">Note</div><iframe src="https://evil.test"></iframe>',
          },
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const settings = created.json().translations[0].settings;
    expect(settings.informationtext).toBe('<p>Hi <b>there</b><img />link</p>');
    expect(settings.pretext).toBe('<div style="color:red">Note</div>');
    for (const bad of ['script', 'onerror', 'onclick', 'javascript:', 'iframe']) {
      expect(JSON.stringify(created.json()), bad).not.toContain(bad);
    }
    const patched = await admin.patch(`/api/displayitem/${created.json().id}`, {
      translations: [
        { culture: 'nl_NL', name: 'Naam', settings: { informationtext: '<img src=x onerror=alert(1)>ok' } },
      ],
    });
    expect(patched.json().translations).toEqual([
      { culture: 'nl_NL', name: 'Naam', settings: { informationtext: '<img />ok' } },
    ]);
  });

  test('view: required, a built-in view or a custom view of the entity', async () => {
    const { environment, admin, entity, field, base } = await setup();
    const body = { ...base, defDossierDefField: field.id };
    expect((await admin.post('/api/displayitem', body)).json()).toEqual({
      errors: { view: REQUIRED_MESSAGE },
    });
    expect((await admin.post('/api/displayitem', { ...body, view: '  ' })).json()).toEqual({
      errors: { view: REQUIRED_MESSAGE },
    });
    const unknown = await admin.post('/api/displayitem', { ...body, view: 'Gantt' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ errors: { view: DISPLAY_ITEM_MESSAGES.unknownView } });
    const other = await buildDefDossier(t.db, environment.id);
    await admin.post('/api/displaycustomview', {
      environment: environment.id,
      defDossier: other.id,
      viewName: 'Gantt',
    });
    expect((await admin.post('/api/displayitem', { ...body, view: 'Gantt' })).statusCode).toBe(400);
    await admin.post('/api/displaycustomview', {
      environment: environment.id,
      defDossier: entity.id,
      viewName: 'Gantt',
    });
    const custom = await admin.post('/api/displayitem', { ...body, view: 'Gantt' });
    expect(custom.statusCode, custom.body).toBe(201);
    for (const view of ['show/edit', 'edit', 'show', 'list', 'search', 'advanced-search', 'summary']) {
      expect((await admin.post('/api/displayitem', { ...body, view })).statusCode, view).toBe(201);
    }
    const patched = await admin.patch(`/api/displayitem/${custom.json().id}`, { view: 'Kanban' });
    expect(patched.json()).toEqual({ errors: { view: DISPLAY_ITEM_MESSAGES.unknownView } });
  });

  test('a data field or a link is required, except for blocks and dossier data; never both', async () => {
    const { environment, admin, entity, field, base } = await setup();
    const link = await buildLink(t.db, entity, await buildDefDossier(t.db, environment.id));
    const none = await admin.post('/api/displayitem', { ...base, view: 'list' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ errors: { defDossierDefField: ENTITY_MESSAGES.chooseFieldOrLink } });
    const nulls = await admin.post('/api/displayitem', {
      ...base,
      view: 'list',
      defDossierDefField: null,
      defDossierLink: null,
      settings: { dossier_data: 'nonsense', block: false },
    });
    expect(nulls.json()).toEqual({ errors: { defDossierDefField: ENTITY_MESSAGES.chooseFieldOrLink } });
    // a block of the environment (another environment's is refused: dashboard/block-items.test.ts)
    const block = await t.db
      .insertInto('mypage_block')
      .values({ environment_id: environment.id, type: 'online_users' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const settings of [
      { block: block.id },
      { dossier_data: 'summary' },
      { dossier_data: 'modified_at' },
    ]) {
      const response = await admin.post('/api/displayitem', { ...base, view: 'list', settings });
      expect(response.statusCode, JSON.stringify(settings)).toBe(201);
      expect(response.json()).toMatchObject({
        def_dossier_def_field: null,
        def_dossier_link: null,
        settings,
      });
    }
    const both = await admin.post('/api/displayitem', {
      ...base,
      view: 'list',
      defDossierDefField: field.id,
      defDossierLink: link.id,
    });
    expect(both.json()).toEqual({ errors: { defDossierLink: DISPLAY_ITEM_MESSAGES.fieldAndLink } });
    const linkItem = await admin.post('/api/displayitem', { ...base, view: 'list', defDossierLink: link.id });
    expect(linkItem.statusCode, linkItem.body).toBe(201);
    expect(linkItem.json().def_dossier_link).toMatchObject({
      id: link.id,
      name: link.name,
      back_link_id: null,
    });
    // Patching away the link without a replacement breaks the rule too.
    const emptied = await admin.patch(`/api/displayitem/${linkItem.json().id}`, { defDossierLink: null });
    expect(emptied.json()).toEqual({ errors: { defDossierDefField: ENTITY_MESSAGES.chooseFieldOrLink } });
    const swapped = await admin.patch(`/api/displayitem/${linkItem.json().id}`, {
      defDossierLink: null,
      defDossierDefField: field.id,
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json()).toMatchObject({ def_dossier_link: null, def_dossier_def_field: { id: field.id } });
  });

  test('the data field, link, position and roles must belong to the entity and environment', async () => {
    const { environment, otherEnvironment, admin, entity, text, field, base } = await setup();
    const sibling = await buildDefDossier(t.db, environment.id);
    const siblingField = await buildDataField(t.db, sibling, text.id);
    const siblingLink = await buildLink(t.db, sibling, entity);
    const siblingPosition = await buildDisplayPosition(t.db, sibling);
    const foreign = await buildDefDossier(t.db, otherEnvironment.id);
    const foreignField = await buildDataField(
      t.db,
      foreign,
      (await buildDefField(t.db, otherEnvironment.id)).id,
    );
    const foreignLink = await buildLink(t.db, foreign, foreign);
    const foreignPosition = await buildDisplayPosition(t.db, foreign);
    const foreignRole = await buildRole(t.db, otherEnvironment.id);

    const post = (extra: Record<string, unknown>) =>
      admin.post('/api/displayitem', { ...base, view: 'edit', defDossierDefField: field.id, ...extra });
    for (const id of [siblingField.id, foreignField.id, 999999]) {
      expect((await post({ defDossierDefField: id })).json()).toEqual({
        errors: { defDossierDefField: NOT_OF_ENTITY },
      });
    }
    for (const id of [siblingLink.id, foreignLink.id]) {
      expect((await post({ defDossierDefField: null, defDossierLink: id })).json()).toEqual({
        errors: { defDossierLink: NOT_OF_ENTITY },
      });
    }
    for (const id of [siblingPosition.id, foreignPosition.id]) {
      expect((await post({ displayPosition: id })).json()).toEqual({
        errors: { displayPosition: NOT_OF_ENTITY },
      });
    }
    expect((await post({ roles: [foreignRole.id] })).json()).toEqual({
      errors: { roles: DISPLAY_ITEM_MESSAGES.unknownRole },
    });
    expect((await post({ defDossier: foreign.id })).json()).toEqual({
      errors: { defDossier: NOT_IN_ENVIRONMENT },
    });
    // Several broken rules are all reported.
    const several = await post({
      defDossierDefField: foreignField.id,
      displayPosition: foreignPosition.id,
      roles: [foreignRole.id],
    });
    expect(Object.keys(several.json().errors).sort()).toEqual([
      'defDossierDefField',
      'displayPosition',
      'roles',
    ]);
    // An unknown view takes no position, so only the view is reported then.
    const unknownView = await post({ displayPosition: foreignPosition.id, view: 'x' });
    expect(unknownView.json()).toEqual({ errors: { view: DISPLAY_ITEM_MESSAGES.unknownView } });

    const item = (await post({})).json();
    const patched = await admin.patch(`/api/displayitem/${item.id}`, { defDossierDefField: foreignField.id });
    expect(patched.json()).toEqual({ errors: { defDossierDefField: NOT_OF_ENTITY } });
    const rolePatch = await admin.patch(`/api/displayitem/${item.id}`, { roles: [foreignRole.id] });
    expect(rolePatch.json()).toEqual({ errors: { roles: DISPLAY_ITEM_MESSAGES.unknownRole } });
  });

  test('layout numbers not below 0; location only for edit and show views, fixed once saved', async () => {
    const { admin, entity, field, general, base } = await setup();
    const body = { ...base, defDossierDefField: field.id, view: 'edit' };
    const negative = await admin.post('/api/displayitem', { ...body, col: -1, colspan: -2, rank: -3 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toEqual({
      errors: {
        col: ENTITY_MESSAGES.notBelowZero,
        colspan: ENTITY_MESSAGES.notBelowZero,
        rank: ENTITY_MESSAGES.notBelowZero,
      },
    });
    const missingNumber = await admin.post('/api/displayitem', { ...body, col: null });
    expect(missingNumber.json()).toEqual({ errors: { col: REQUIRED_MESSAGE } });

    const listItem = await admin.post('/api/displayitem', {
      ...body,
      view: 'list',
      displayPosition: general.id,
    });
    expect(listItem.json().display_position_id).toBeNull();
    const searchItem = await admin.post('/api/displayitem', {
      ...body,
      view: 'search',
      displayPosition: general.id,
    });
    expect(searchItem.json().display_position_id).toBeNull();

    const item = (await admin.post('/api/displayitem', { ...body, displayPosition: general.id })).json();
    expect(item.display_position_id).toBe(general.id);
    const other = await buildDisplayPosition(t.db, entity, { name: 'Other' });
    for (const change of [{ displayPosition: other.id }, { displayPosition: null }, { view: 'list' }]) {
      const response = await admin.patch(`/api/displayitem/${item.id}`, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual({ errors: { displayPosition: ENTITY_MESSAGES.locationFixed } });
    }
    const same = await admin.patch(`/api/displayitem/${item.id}`, {
      view: 'show',
      displayPosition: general.id,
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ view: 'show', display_position_id: general.id });
    const negativePatch = await admin.patch(`/api/displayitem/${item.id}`, { colspan: -1 });
    expect(negativePatch.json()).toEqual({ errors: { colspan: ENTITY_MESSAGES.notBelowZero } });
  });

  test('lists by position rank, rank and col with filters and paging', async () => {
    const { environment, otherEnvironment, admin, entity, field, general } = await setup();
    const early = await buildDisplayPosition(t.db, entity, { name: 'Early', rank: 0 });
    const a = await buildDisplayItem(t.db, entity, {
      dataFieldId: field.id,
      positionId: general.id,
      rank: 1,
      view: 'edit',
    });
    const b = await buildDisplayItem(t.db, entity, {
      dataFieldId: field.id,
      positionId: early.id,
      rank: 5,
      view: 'edit',
    });
    const c = await buildDisplayItem(t.db, entity, {
      dataFieldId: field.id,
      positionId: general.id,
      rank: 0,
      view: 'show',
    });
    await t.db.updateTable('display_item').set({ col: 3 }).where('id', '=', c.id).execute();
    const d = await buildDisplayItem(t.db, entity, {
      dataFieldId: field.id,
      positionId: general.id,
      rank: 0,
      view: 'edit',
    });
    const list1 = await buildDisplayItem(t.db, entity, { dataFieldId: field.id, view: 'list', rank: 2 });
    const list2 = await buildDisplayItem(t.db, entity, { dataFieldId: field.id, view: 'list', rank: 1 });
    const elsewhere = await buildDisplayItem(t.db, await buildDefDossier(t.db, environment.id), {
      view: 'list',
    });
    await buildDisplayItem(t.db, await buildDefDossier(t.db, otherEnvironment.id), { view: 'list' });

    const all = await admin.get(`/api/displayitem?defDossier=${entity.id}&limit=500`);
    expect(all.statusCode, all.body).toBe(200);
    // Items without a position first (list view), then by position rank, rank, col.
    expect(ids(all.json())).toEqual([list2.id, list1.id, b.id, d.id, c.id, a.id]);
    expect(all.json().results[0].def_dossier_def_field).toMatchObject({
      id: field.id,
      def_field: { type: 'text' },
    });

    const listView = await admin.get(`/api/displayitem?defDossier=${entity.id}&view=list`);
    expect(ids(listView.json())).toEqual([list2.id, list1.id]);
    const inGeneral = await admin.get(
      `/api/displayitem?defDossier=${entity.id}&displayPosition=${general.id}&view=edit`,
    );
    expect(ids(inGeneral.json())).toEqual([d.id, a.id]);
    const paged = await admin.get(`/api/displayitem?defDossier=${entity.id}&limit=4&page=1`);
    expect(paged.json().pager).toEqual({ current: 1, pages: 2, items: 6, limit: 4 });
    expect(ids(paged.json())).toEqual([c.id, a.id]);
    const byUuid = await admin.get(`/api/displayitem?environment=${environment.id}&uuid=${elsewhere.uuid}`);
    expect(ids(byUuid.json())).toEqual([elsewhere.id]);
    const environmentWide = await admin.get(`/api/displayitem?environment=${environment.id}&view=list`);
    expect(environmentWide.json().pager.items).toBe(3);
    for (const query of [
      '',
      `defDossier=${entity.id}&limit=501`,
      `defDossier=${entity.id}&displayPosition=x`,
    ]) {
      expect((await admin.get(`/api/displayitem?${query}`)).statusCode, query).toBe(400);
    }
  });

  test('POST /auto creates the items for a new data field', async () => {
    const { environment, admin, entity, text, general } = await setup();
    await buildDisplayItem(t.db, entity, { positionId: general.id, view: 'show/edit', rank: 4 });
    const dataField = (
      await admin.post('/api/defdossierdeffield', {
        environment: environment.id,
        defDossier: entity.id,
        defField: text.id,
        name: 'Last name',
      })
    ).json();
    const response = await admin.post('/api/displayitem/auto', {
      defDossierDefField: dataField.id,
      displayPosition: general.id,
      view: 'show/edit',
      translations: [
        { culture: 'en_GB', name: 'Last name', settings: { informationtext: '<b>x</b><script>y</script>' } },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const [main, list] = response.json().results;
    expect(response.json().results).toHaveLength(2);
    expect(main).toMatchObject({
      view: 'show/edit',
      display_position_id: general.id,
      col: 1,
      colspan: 4,
      rowspan: 0,
      rank: 5,
      def_dossier_def_field: { id: dataField.id },
      translations: [{ culture: 'en_GB', name: 'Last name', settings: { informationtext: '<b>x</b>' } }],
    });
    expect(list).toMatchObject({
      view: 'list',
      display_position_id: null,
      col: 1,
      colspan: 4,
      rowspan: 0,
      rank: 1,
    });

    // Once in the list view, a second run adds only the positioned item; without a position the
    // entity's first main content position is used.
    const again = await admin.post('/api/displayitem/auto', {
      defDossierDefField: dataField.id,
      view: 'edit',
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().results).toHaveLength(1);
    expect(again.json().results[0]).toMatchObject({ view: 'edit', display_position_id: general.id, rank: 1 });

    const sibling = await buildDisplayPosition(t.db, await buildDefDossier(t.db, environment.id));
    const wrongPosition = await admin.post('/api/displayitem/auto', {
      defDossierDefField: dataField.id,
      displayPosition: sibling.id,
    });
    expect(wrongPosition.json()).toEqual({ errors: { displayPosition: NOT_OF_ENTITY } });
    const wrongView = await admin.post('/api/displayitem/auto', {
      defDossierDefField: dataField.id,
      view: 'nope',
    });
    expect(wrongView.json()).toEqual({ errors: { view: DISPLAY_ITEM_MESSAGES.unknownView } });
    expect((await admin.post('/api/displayitem/auto', {})).json()).toEqual({
      errors: { defDossierDefField: REQUIRED_MESSAGE },
    });
    expect((await admin.post('/api/displayitem/auto', { defDossierDefField: 999999 })).statusCode).toBe(404);
    const count = await admin.get(`/api/displayitem?defDossier=${entity.id}`);
    expect(count.json().pager.items).toBe(4);
  });

  test('only admins of the environment: members and other admins are refused on every call', async () => {
    const { environment, otherEnvironment, admin, member, outsider, entity, field, general, base } =
      await setup();
    const item = (
      await admin.post('/api/displayitem', {
        ...base,
        defDossierDefField: field.id,
        displayPosition: general.id,
        view: 'edit',
        translations: [{ culture: 'en_GB', name: 'Secret label' }],
      })
    ).json();
    const body = { ...base, defDossierDefField: field.id, view: 'list' };
    const calls = (client: TestClient) =>
      [
        ['list by entity', () => client.get(`/api/displayitem?defDossier=${entity.id}`)],
        ['list by environment', () => client.get(`/api/displayitem?environment=${environment.id}`)],
        ['get', () => client.get(`/api/displayitem/${item.id}`)],
        ['post', () => client.post('/api/displayitem', body)],
        ['auto', () => client.post('/api/displayitem/auto', { defDossierDefField: field.id })],
        ['patch', () => client.patch(`/api/displayitem/${item.id}`, { col: 5 })],
        ['delete', () => client.delete(`/api/displayitem/${item.id}`)],
      ] as const;
    for (const [what, call] of calls(member)) expectForbidden(await call(), `member ${what}`);
    for (const [what, call] of calls(outsider)) {
      const response = await call();
      expectNotFound(response, `outsider ${what}`);
      expect(response.body).not.toContain('Secret label');
    }
    for (const [what, call] of calls(t.client())) expect((await call()).statusCode, what).toBe(401);

    const theirs = await buildDefDossier(t.db, otherEnvironment.id);
    const intoTheirs = await outsider.post('/api/displayitem', {
      environment: otherEnvironment.id,
      defDossier: theirs.id,
      defDossierDefField: field.id,
      view: 'list',
    });
    expect(intoTheirs.statusCode).toBe(400);
    expect(intoTheirs.json()).toEqual({ errors: { defDossierDefField: NOT_OF_ENTITY } });
    const list = await outsider.get(
      `/api/displayitem?environment=${otherEnvironment.id}&defDossier=${entity.id}`,
    );
    expect(list.statusCode).toBe(404);
    expect((await admin.get(`/api/displayitem/${item.id}`)).json().col).toBe(1);
  });
});
