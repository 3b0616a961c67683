import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  buildDisplayItem,
  buildDisplayPosition,
  buildLink,
  buildPermission,
  setItemRoles,
} from '../../../test/entity-factories';
import { type AdminSetup, adminSetup } from '../../../test/entity-test-setup';
import { addMember, buildDefDossier, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { addField } from './fixture';
import { refreshSummaries, writeMissingVariants } from './summary-refresh';

// A summary item restricted to a role: its value reaches only the readers who may see it, on every
// screen and call that shows or searches summaries (issue 12, defect 6).

const BSN = '123456789';
const PHONE = '0612345678';

let t: TestApp;
let s: AdminSetup;
let env: number;
/** member with the Reader role only (the ordinary member of adminSetup) */
let member: TestClient;
/** member with Reader and Secret */
let withSecret: TestClient;
/** member with Reader and Phone */
let withPhone: TestClient;
let person: Awaited<ReturnType<typeof buildDefDossier>>;
let kase: Awaited<ReturnType<typeof buildDefDossier>>;
const roles: Record<'reader' | 'secret' | 'phone', number> = { reader: 0, secret: 0, phone: 0 };
const items: Record<string, number> = {};
const dataFields: Record<string, number> = {};
const ids: Record<string, number> = {};

async function created(client: TestClient, defDossier: number, values: Record<string, unknown>) {
  const response = await client.post('/api/contentdossier', { defDossier, values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

async function ok(client: TestClient, url: string) {
  const response = await client.get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response;
}

const listUrl = (entity: number, params: Record<string, string> = {}) =>
  `/api/contentdossier?${new URLSearchParams({ defDossier: String(entity), environment: String(env), ...params })}`;

/** id -> summary of the list page of the person entity. */
async function listSummaries(client: TestClient, params: Record<string, string> = {}) {
  const body = (await ok(client, listUrl(person.id, params))).json();
  return Object.fromEntries(
    body.results.dossiers.map((d: { id: number; summary: string }) => [d.id, d.summary]),
  ) as Record<number, string>;
}

const quickSearch = async (client: TestClient, search: string) =>
  (
    await ok(client, `/api/contentdossier/search?environment=${env}&search=${encodeURIComponent(search)}`)
  ).json() as {
    id: number;
    summary: string;
  }[];

const detail = async (client: TestClient, id: number) =>
  (await ok(client, `/api/contentdossier/${id}`)).json();

/** Adds a summary item through the API (the path that rewrites stored summaries). */
async function addSummaryItem(dataField: number, rank: number, restrictTo: number[] = []) {
  const response = await s.admin.post('/api/displayitem', {
    environment: env,
    defDossier: person.id,
    defDossierDefField: dataField,
    view: 'summary',
    rank,
    roles: restrictTo,
    permissions_type: restrictTo.length ? 'INCLUDE_SELECTED_ROLES' : 'EXCLUDE_SELECTED_ROLES',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  env = s.environment.id;
  member = s.member;
  roles.reader = (await buildRole(t.db, env, 'Reader')).id;
  roles.secret = (await buildRole(t.db, env, 'Secret')).id;
  roles.phone = (await buildRole(t.db, env, 'Phone')).id;
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: [roles.reader], credentials: ['export', 'quick_search'] })
    .where('environment_id', '=', env)
    .where('user_id', '=', s.memberId)
    .execute();
  const [secretUser, phoneUser] = await Promise.all([t.signIn(), t.signIn()]);
  await addMember(t.db, env, {
    user: secretUser.user,
    roleIds: [roles.reader, roles.secret],
    credentials: ['quick_search'],
  });
  await addMember(t.db, env, {
    user: phoneUser.user,
    roleIds: [roles.reader, roles.phone],
    credentials: ['quick_search'],
  });
  withSecret = secretUser.client;
  withPhone = phoneUser.client;

  // Person: name (for all), bsn (Secret only) and phone (Phone only), each in show/edit and list.
  person = await buildDefDossier(t.db, env, { name: 'Person' });
  const main = await buildDisplayPosition(t.db, person, { type: 'main_content', rank: 1 });
  for (const [name, role] of [
    ['name', null],
    ['bsn', roles.secret],
    ['phone', roles.phone],
  ] as const) {
    const field = await addField(t, person, main.id, 'text', name);
    const listItem = await buildDisplayItem(t.db, person, { dataFieldId: field.dataField.id, view: 'list' });
    if (role) {
      await setItemRoles(t.db, field.item.id, 'INCLUDE_SELECTED_ROLES', [role]);
      await setItemRoles(t.db, listItem.id, 'INCLUDE_SELECTED_ROLES', [role]);
    }
    items[name] = field.item.id;
    dataFields[name] = field.dataField.id;
  }
  // a list column showing the summary itself (dossier data), which can be filtered and sorted on
  items.summaryColumn = (
    await buildDisplayItem(t.db, person, { view: 'list', settings: { dossier_data: 'summary' } })
  ).id;
  items.nameSummary = await addSummaryItem(dataFields.name, 1);
  items.bsnSummary = await addSummaryItem(dataFields.bsn, 2, [roles.secret]);

  // Case: a title in its summary and a link to a person, shown on the page and in the list.
  kase = await buildDefDossier(t.db, env, { name: 'Case' });
  const caseMain = await buildDisplayPosition(t.db, kase, { type: 'main_content', rank: 1 });
  const title = await addField(t, kase, caseMain.id, 'text', 'title');
  await buildDisplayItem(t.db, kase, { dataFieldId: title.dataField.id, view: 'summary' });
  const client = await buildLink(t.db, kase, person, { name: 'client' });
  items.caseTitle = title.item.id;
  items.caseClient = (await buildDisplayItem(t.db, kase, { linkId: client.id, positionId: caseMain.id })).id;
  items.caseClientList = (await buildDisplayItem(t.db, kase, { linkId: client.id, view: 'list' })).id;
  ids.clientLink = client.id;

  for (const entity of [person, kase]) await buildPermission(t.db, entity, roles.reader, ['show']);

  ids.alice = await created(s.admin, person.id, { [items.name]: 'Alice Jansen', [items.bsn]: BSN });
  ids.bob = await created(s.admin, person.id, { [items.name]: 'Bob de Vries' });
  ids.nameless = await created(s.admin, person.id, { [items.bsn]: '555000111' });
  ids.case = await created(s.admin, kase.id, {
    [items.caseTitle]: 'Case one',
    [items.caseClient]: [ids.alice],
  });
});

afterAll(() => t.close());

describe('a summary item restricted to a role', () => {
  test('the list page shows each reader only the summary items they may see', async () => {
    const forMember = await listSummaries(member);
    expect(forMember[ids.alice]).toBe('Alice Jansen');
    expect(forMember[ids.bob]).toBe('Bob de Vries');
    // nothing visible is left: summarised by its id, as a dossier without summary values
    expect(forMember[ids.nameless]).toBe(`#${ids.nameless}`);
    const page = (await ok(member, listUrl(person.id))).body;
    expect(page).not.toContain(BSN);
    expect(page).not.toContain('555000111');
    const content = JSON.parse(page).results.contents[String(ids.alice)];
    expect(content[items.summaryColumn]).toBe('Alice Jansen');

    for (const reader of [withSecret, s.admin]) {
      const full = await listSummaries(reader);
      expect(full[ids.alice]).toBe(`Alice Jansen ${BSN}`);
      expect(full[ids.nameless]).toBe('555000111');
    }
  });

  test('quick search shows the visible summary and never matches a hidden value', async () => {
    expect(await quickSearch(member, 'alice')).toEqual([
      expect.objectContaining({ id: ids.alice, summary: 'Alice Jansen' }),
    ]);
    expect(await quickSearch(member, BSN)).toEqual([]);
    expect(await quickSearch(member, '3456')).toEqual([]);
    expect(await quickSearch(member, `Jansen ${BSN.slice(0, 3)}`)).toEqual([]);
    for (const reader of [withSecret, s.admin]) {
      expect(await quickSearch(reader, BSN)).toEqual([
        expect.objectContaining({ id: ids.alice, summary: `Alice Jansen ${BSN}` }),
      ]);
    }
  });

  test('the list filters and sorts on the visible summary only (link pickers search this way)', async () => {
    expect(await listSummaries(member, { summary: 'alice' })).toEqual({ [ids.alice]: 'Alice Jansen' });
    const hidden = (await ok(member, listUrl(person.id, { summary: BSN }))).json();
    expect(hidden.results.dossiers).toEqual([]);
    expect(hidden.pager.items).toBe(0);
    expect((await ok(member, listUrl(person.id, { [items.summaryColumn]: BSN }))).json().pager.items).toBe(0);
    expect(await listSummaries(withSecret, { summary: BSN })).toEqual({ [ids.alice]: `Alice Jansen ${BSN}` });
    expect(await listSummaries(s.admin, { [items.summaryColumn]: BSN })).toEqual({
      [ids.alice]: `Alice Jansen ${BSN}`,
    });
    // quotes and backslashes, which the variants' JSON text escapes, are found as typed
    const quoted = await created(s.admin, person.id, {
      [items.name]: 'Zoë "Zo" Back\\slash',
      [items.bsn]: BSN,
    });
    expect(await listSummaries(member, { summary: 'ë "zo" back\\sl' })).toEqual({
      [quoted]: 'Zoë "Zo" Back\\slash',
    });
    expect(await quickSearch(member, '"Zo" Back\\')).toEqual([expect.objectContaining({ id: quoted })]);
    expect((await s.admin.delete(`/api/contentdossier/${quoted}`)).statusCode).toBe(200);
    // sorted on what the member sees: '#id' before the names
    const sorted = (await ok(member, listUrl(person.id, { 'sort[]': 'summary' }))).json();
    expect(sorted.results.dossiers.map((d: { id: number }) => d.id)).toEqual([
      ids.nameless,
      ids.alice,
      ids.bob,
    ]);
  });

  test('the detail page shows the visible summary', async () => {
    const forMember = await detail(member, ids.alice);
    expect(forMember.dossier.summary).toBe('Alice Jansen');
    expect(JSON.stringify(forMember)).not.toContain(BSN);
    expect((await detail(withSecret, ids.alice)).dossier.summary).toBe(`Alice Jansen ${BSN}`);
    expect((await detail(s.admin, ids.alice)).dossier.summary).toBe(`Alice Jansen ${BSN}`);
  });

  test("a link field on another entity shows the linked dossier's visible summary", async () => {
    const linked = (body: { content: Record<string, unknown> }) => body.content[items.caseClient];
    const forMember = await detail(member, ids.case);
    expect(linked(forMember)).toEqual([expect.objectContaining({ id: ids.alice, summary: 'Alice Jansen' })]);
    expect(JSON.stringify(forMember)).not.toContain(BSN);
    expect(linked(await detail(withSecret, ids.case))).toEqual([
      expect.objectContaining({ id: ids.alice, summary: `Alice Jansen ${BSN}` }),
    ]);

    const caseList = async (client: TestClient) => {
      const response = await ok(client, listUrl(kase.id));
      return {
        body: response.body,
        linked: response.json().results.contents[ids.case][items.caseClientList],
      };
    };
    const memberList = await caseList(member);
    expect(memberList.linked).toEqual([expect.objectContaining({ id: ids.alice, summary: 'Alice Jansen' })]);
    expect(memberList.body).not.toContain(BSN);
    expect((await caseList(s.admin)).linked).toEqual([
      expect.objectContaining({ id: ids.alice, summary: `Alice Jansen ${BSN}` }),
    ]);
    // sorting the cases on the linked summary reads the visible one too
    await ok(member, listUrl(kase.id, { 'sort[]': `dfl_${ids.clientLink}` }));
  });

  test('readers who see some of several restricted items get the summary of those', async () => {
    const phoneItem = await addSummaryItem(dataFields.phone, 3, [roles.phone]);
    const put = await s.admin.request({
      method: 'PUT',
      url: `/api/contentdossier/${ids.alice}`,
      payload: { values: { [items.phone]: PHONE } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await listSummaries(member))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(withSecret))[ids.alice]).toBe(`Alice Jansen ${BSN}`);
    expect((await listSummaries(withPhone))[ids.alice]).toBe(`Alice Jansen ${PHONE}`);
    expect((await listSummaries(s.admin))[ids.alice]).toBe(`Alice Jansen ${BSN} ${PHONE}`);
    expect(await quickSearch(withPhone, BSN)).toEqual([]);
    expect(await quickSearch(withPhone, PHONE)).toEqual([expect.objectContaining({ id: ids.alice })]);
    expect((await s.admin.delete(`/api/displayitem/${phoneItem}`)).statusCode).toBe(204);
    expect((await listSummaries(withPhone))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(s.admin))[ids.alice]).toBe(`Alice Jansen ${BSN}`);
  });
});

describe('a change of the summary items rewrites the stored summaries', () => {
  test('lifting and setting a restriction, adding and removing items', async () => {
    const patch = (id: number, body: Record<string, unknown>) =>
      s.admin.patch(`/api/displayitem/${id}`, body).then((r) => expect(r.statusCode, r.body).toBe(200));

    // open to everyone: the member sees the value
    await patch(items.bsnSummary, { roles: [], permissions_type: 'EXCLUDE_SELECTED_ROLES' });
    expect((await listSummaries(member))[ids.alice]).toBe(`Alice Jansen ${BSN}`);
    expect(await quickSearch(member, BSN)).toEqual([expect.objectContaining({ id: ids.alice })]);

    // hidden from the Reader role: the member and the Secret member (who has Reader too) lose it
    await patch(items.bsnSummary, { roles: [roles.reader], permissions_type: 'EXCLUDE_SELECTED_ROLES' });
    expect((await listSummaries(member))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(withSecret))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(s.admin))[ids.alice]).toBe(`Alice Jansen ${BSN}`);

    // the name leaves the summary: the member has nothing left but the id
    expect((await s.admin.delete(`/api/displayitem/${items.nameSummary}`)).statusCode).toBe(204);
    expect((await listSummaries(member))[ids.alice]).toBe(`#${ids.alice}`);
    expect((await listSummaries(s.admin))[ids.alice]).toBe(BSN);
    expect(await quickSearch(member, 'alice')).toEqual([]);

    // back as it was
    items.nameSummary = await addSummaryItem(dataFields.name, 1);
    await patch(items.bsnSummary, { roles: [roles.secret], permissions_type: 'INCLUDE_SELECTED_ROLES' });
    expect((await listSummaries(member))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(withSecret))[ids.alice]).toBe(`Alice Jansen ${BSN}`);
    expect(await quickSearch(member, BSN)).toEqual([]);
  });

  test('a restricted item that leaves the summary is taken out of every stored summary first', async () => {
    // the first step of its removal: the summaries are rewritten as if it were gone
    await refreshSummaries(t.db, person, { without: { item: items.bsnSummary } });
    const stored = await t.db
      .selectFrom('content_dossier')
      .select(['summary', 'summaries'])
      .where('def_dossier_id', '=', person.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(BSN);
    // the item is still configured: the member's class has no variant yet and gets the id
    expect((await listSummaries(member))[ids.alice]).toBe(`#${ids.alice}`);
    expect((await listSummaries(s.admin))[ids.alice]).toBe('Alice Jansen');
    await refreshSummaries(t.db, person);
    expect((await listSummaries(member))[ids.alice]).toBe('Alice Jansen');
    expect((await listSummaries(s.admin))[ids.alice]).toBe(`Alice Jansen ${BSN}`);
  });

  test('a dossier written under other summary items is shown by its id, never with their text', async () => {
    // as if written before the bsn item was restricted, and not rewritten since
    await t.db
      .updateTable('content_dossier')
      .set({ summary: `Bob de Vries ${BSN}`, summaries: null })
      .where('id', '=', ids.bob)
      .execute();
    expect((await listSummaries(member))[ids.bob]).toBe(`#${ids.bob}`);
    expect(await quickSearch(member, BSN)).toEqual([]);
    // the start-up pass writes the variants it lacks
    await writeMissingVariants(t.db);
    expect((await listSummaries(member))[ids.bob]).toBe('Bob de Vries');
    expect((await listSummaries(s.admin))[ids.bob]).toBe('Bob de Vries');
  });
});
