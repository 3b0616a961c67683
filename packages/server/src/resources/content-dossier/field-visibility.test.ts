import type { DossierDetail, DossierListBody } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, setItemRoles } from '../../../test/entity-factories';
import { put } from '../../../test/entity-test-setup';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, key } from './fixture';

// Role visibility is a property of a data field that holds in every view (spec doc 2 section 5,
// "Visibility by role"): a member of a role the field is hidden from gets its value nowhere, cannot
// sort, filter or aggregate on it, and reads summaries without it. A display item narrows it for its
// own view and never widens it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Client with Amount in the list, search and summary views, two dossiers, and the member's role shown Client. */
async function setup() {
  const s = await dossierSetup(t);
  await s.grant(s.client, ['show', 'create', 'edit']);
  // the quick search needs its credential
  await t.db
    .updateTable('environment_user')
    .set({ credentials: ['export', 'quick_search'] })
    .where('environment_id', '=', s.environment.id)
    .where('user_id', '=', s.memberId)
    .execute();
  const amount = s.fields.amount;
  const items = {
    listName: await buildDisplayItem(t.db, s.client, {
      dataFieldId: s.fields.name.dataField.id,
      view: 'list',
    }),
    list: await buildDisplayItem(t.db, s.client, { dataFieldId: amount.dataField.id, view: 'list', rank: 2 }),
    search: await buildDisplayItem(t.db, s.client, { dataFieldId: amount.dataField.id, view: 'search' }),
    summary: await buildDisplayItem(t.db, s.client, {
      dataFieldId: amount.dataField.id,
      view: 'summary',
      rank: 3,
    }),
  };
  const ids: number[] = [];
  for (const [name, value] of [
    ['Jansen', '4711.25'],
    ['Pietersen', '815.5'],
  ]) {
    const created = await s.admin.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [key(s.fields.name.item)]: name, [key(amount.item)]: value },
    });
    expect(created.statusCode, created.body).toBe(201);
    ids.push(created.json().id);
  }
  return { s, items, ids };
}

/** The admin sets who sees a data field, through the data field call (as the field designer does). */
async function setFieldRoles(s: DossierSetup, permissions_type: string, roles: number[]) {
  const patched = await s.admin.patch(`/api/defdossierdeffield/${s.fields.amount.dataField.id}`, {
    permissions_type,
    roles,
  });
  expect(patched.statusCode, patched.body).toBe(200);
  expect(patched.json()).toMatchObject({ permissions_type, roles });
}

// The hidden amount as the server writes it (4711.25) or formats it (4.711,25); the separator keeps a
// uuid's hex digits from matching.
const HIDDEN_AMOUNT = /4\.?711[.,]25/;

const list = async (s: DossierSetup, client = s.member, query = '') => {
  const response = await client.get(`/api/contentdossier?defDossier=${s.client.id}${query}`);
  return { status: response.statusCode, body: response.json() as DossierListBody, text: response.body };
};

describe('a data field hidden from a role', () => {
  test('holds in every view: list, search, sort, filter, aggregations, summary and the dossier page', async () => {
    const { s, items, ids } = await setup();
    const visible = await list(s);
    expect(visible.text).toContain('4711.25');
    expect(visible.body.results.items.map((i) => i.id)).toContain(items.list.id);

    await setFieldRoles(s, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);

    // the list: no column, no value
    const hidden = await list(s);
    expect(hidden.status).toBe(200);
    expect(hidden.body.results.items.map((i) => i.id)).toEqual([items.listName.id]);
    expect(hidden.text).not.toMatch(/4\.?711[.,]25|815[.,]5/);
    for (const content of Object.values(hidden.body.results.contents))
      expect(Object.keys(content as object)).not.toContain(key(items.list));

    // no sort, filter or aggregation on it
    for (const query of [
      `&sort[]=${items.list.id}&sortOrder[]=DESC`,
      `&${items.search.id}=4711.25`,
      `&${items.list.id}=4711.25`,
      `&${items.list.id}_aggregate=sum`,
    ]) {
      const refused = await list(s, s.member, query);
      expect(refused.status, query).toBe(400);
      expect(refused.text, query).not.toMatch(HIDDEN_AMOUNT);
    }

    // summaries without it (the variant of the member's class), in the list and on the dossier
    expect(hidden.body.results.dossiers.map((d) => d.summary).sort()).toEqual([
      'Jansen C-1',
      'Pietersen C-2',
    ]);
    const detail = (await s.member.get(`/api/contentdossier/${ids[0]}`)).json() as DossierDetail;
    expect(detail.dossier.summary).toBe('Jansen C-1');
    expect(detail.items.map((i) => i.id)).not.toContain(s.fields.amount.item.id);
    expect(JSON.stringify(detail)).not.toMatch(HIDDEN_AMOUNT);
    const quick = (client: typeof s.member) =>
      client.get(
        `/api/contentdossier/search?environment=${s.environment.id}&search=${encodeURIComponent('711,25')}`,
      );
    expect((await quick(s.member)).json()).toEqual([]);
    expect((await quick(s.admin)).json()).toEqual([expect.objectContaining({ id: ids[0] })]);

    // nor may the member write it
    const written = await put(s.member, `/api/contentdossier/${ids[0]}`, {
      values: { [key(s.fields.amount.item)]: '1' },
    });
    expect(written.statusCode).toBe(400);

    // the admin still sees everything
    const admin = await list(s, s.admin, `&sort[]=${items.list.id}&${items.list.id}_aggregate=sum`);
    expect(admin.status).toBe(200);
    expect(admin.text).toContain('4711.25');
    expect(admin.body.results.aggregations).toEqual([expect.objectContaining({ value: 5526.75 })]);
    expect(admin.body.results.dossiers.map((d) => d.summary).sort()).toEqual([
      'Jansen C-1 4.711,25',
      'Pietersen C-2 815,50',
    ]);
  });

  test('INCLUDE shows it only to the roles chosen', async () => {
    const { s, items } = await setup();
    const others = await t.db
      .insertInto('role')
      .values({ environment_id: s.environment.id, name: 'Others', translations: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setFieldRoles(s, 'INCLUDE_SELECTED_ROLES', [others.id]);
    expect((await list(s)).text).not.toMatch(HIDDEN_AMOUNT);
    await setFieldRoles(s, 'INCLUDE_SELECTED_ROLES', [others.id, s.role.id]);
    const shown = await list(s, s.member, `&sort[]=${items.list.id}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('4711.25');
    expect(shown.body.results.dossiers[0].summary).toBe('Pietersen C-2 815,50');
  });

  test('a display item narrows the field for its view, and never widens it', async () => {
    const { s, items, ids } = await setup();
    // narrower: hidden in the list only; the dossier page still shows it
    await setItemRoles(t.db, items.list.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
    const narrowed = await list(s);
    expect(narrowed.body.results.items.map((i) => i.id)).toEqual([items.listName.id]);
    expect(narrowed.text).not.toContain('4711.25');
    // the summary is a view of its own, which still shows it
    expect(narrowed.body.results.dossiers.map((d) => d.summary)).toContain('Jansen C-1 4.711,25');
    expect((await s.member.get(`/api/contentdossier/${ids[0]}`)).body).toContain('4711.25');

    // an item for the member's role does not bring back a field hidden from that role
    await setItemRoles(t.db, items.list.id, 'INCLUDE_SELECTED_ROLES', [s.role.id]);
    await setItemRoles(t.db, s.fields.amount.item.id, 'INCLUDE_SELECTED_ROLES', [s.role.id]);
    await setFieldRoles(s, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
    expect((await list(s)).text).not.toMatch(HIDDEN_AMOUNT);
    expect((await s.member.get(`/api/contentdossier/${ids[0]}`)).body).not.toMatch(HIDDEN_AMOUNT);
  });

  test('roles must be roles of the environment; a locked field keeps its roles', async () => {
    const { s } = await setup();
    const url = `/api/defdossierdeffield/${s.fields.amount.dataField.id}`;
    const foreign = await t.db
      .insertInto('role')
      .values({ environment_id: s.otherEnvironment.id, name: 'Foreign', translations: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await s.admin.patch(url, { roles: [foreign.id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { roles: `Unknown role ${foreign.id}` } });
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ locked: true })
      .where('id', '=', s.fields.amount.dataField.id)
      .execute();
    expect((await s.admin.patch(url, { roles: [s.role.id] })).statusCode).toBe(400);
  });
});
