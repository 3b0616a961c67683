import { FORBIDDEN_MESSAGE, LIST_LIMIT_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildLink,
  buildListOption,
  buildPermission,
  setItemRoles,
} from '../../../test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment, buildRole } from '../../../test/factories';
import { statementsOf } from '../../../test/statements';
import { createTestApp, onPostgresServer, type TestApp, type TestClient } from '../../../test/test-app';
import { indexJobsIdle } from '../../query/index-jobs';

// GET /api/contentdossier and /api/contentdossier/search, dossiers inserted directly.

let t: TestApp;
let admin: TestClient;
let member: TestClient;
let noShow: TestClient;
let outsider: TestClient;
let adminId: number;
let envId: number;
let entityId: number;
let childEntityId: number;
let linkId: number;
let backLinkId: number;
let readerRoleId: number;
const item: Record<string, number> = {};
const option: Record<string, number> = {};
const dossier: Record<string, number> = {};
const child: Record<string, number> = {};

async function insertDossier(
  entity: number,
  summary: string,
  values: Record<string, unknown>,
  extra: { archived?: boolean; created_at?: Date } = {},
) {
  const row = await t.db
    .insertInto('content_dossier')
    .values({
      environment_id: envId,
      def_dossier_id: entity,
      summary,
      values: JSON.stringify(values) as never,
      archived: extra.archived ?? false,
      created_by: adminId,
      modified_by: adminId,
      ...(extra.created_at ? { created_at: extra.created_at } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

beforeAll(async () => {
  t = await createTestApp();
  const [a, m, n, o] = await Promise.all([t.signIn(), t.signIn(), t.signIn(), t.signIn()]);
  admin = a.client;
  member = m.client;
  noShow = n.client;
  outsider = o.client;
  adminId = a.user.id;
  const environment = await buildEnvironment(t.db, {
    members: [{ user: a.user, credentials: ['environment-admin'] }],
  });
  envId = environment.id;
  await buildEnvironment(t.db, { members: [{ user: o.user, credentials: ['environment-admin'] }] });
  const reader = await buildRole(t.db, envId, 'Reader');
  readerRoleId = reader.id;
  const secretRole = await buildRole(t.db, envId, 'Secret');
  const other = await buildRole(t.db, envId, 'Other');
  await addMember(t.db, envId, { user: m.user, roleIds: [reader.id], credentials: ['quick_search'] });
  await addMember(t.db, envId, { user: n.user, roleIds: [other.id], credentials: ['quick_search'] });

  const entity = await buildDefDossier(t.db, envId, { name: 'Case' });
  const childEntity = await buildDefDossier(t.db, envId, { name: 'Client' });
  entityId = entity.id;
  childEntityId = childEntity.id;
  await buildPermission(t.db, entity, reader.id, ['show']);
  await buildPermission(t.db, childEntity, reader.id, ['show']);
  await buildPermission(t.db, entity, other.id, ['create']);

  const field = async (name: string, type: string, settings: Record<string, unknown> = {}) => {
    const base = await buildDefField(t.db, envId, { type, settings });
    const data = await buildDataField(t.db, entity, base.id, { name });
    return { base, data };
  };
  const title = await field('title', 'text');
  const amount = await field('amount', 'amount');
  const due = await field('due', 'date');
  const stamp = await field('stamp', 'date', { withtime: true });
  const status = await field('status', 'list');
  const owner = await field('owner', 'user');
  const notes = await field('notes', 'textarea');
  const secret = await field('secret', 'amount');
  for (const [key, text] of [
    ['open', 'Open'],
    ['closed', 'Closed'],
    ['waiting', 'Waiting'],
  ])
    option[key] = (await buildListOption(t.db, status.base.id, { text })).id;
  const link = await buildLink(t.db, entity, childEntity, { name: 'clients' });
  const back = await t.db
    .insertInto('def_dossier_link')
    .values({
      environment_id: envId,
      def_dossier_id: childEntity.id,
      child_def_dossier_id: entity.id,
      back_link_id: link.id,
      name: 'cases',
      type_of_link: 'embeddedList',
      settings: {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('def_dossier_link')
    .set({ back_link_id: back.id })
    .where('id', '=', link.id)
    .execute();
  linkId = link.id;
  backLinkId = back.id;

  const listItem = async (name: string, dataFieldId: number | null, extra: { linkId?: number } = {}) => {
    item[name] = (
      await buildDisplayItem(t.db, entity, { dataFieldId, view: 'list', linkId: extra.linkId ?? null })
    ).id;
  };
  await listItem('title', title.data.id);
  await listItem('amount', amount.data.id);
  await listItem('due', due.data.id);
  await listItem('stamp', stamp.data.id);
  await listItem('status', status.data.id);
  await listItem('owner', owner.data.id);
  await listItem('notes', notes.data.id);
  await listItem('clients', null, { linkId: link.id });
  await listItem('secret', secret.data.id);
  const created = await buildDisplayItem(t.db, entity, {
    view: 'list',
    settings: { dossier_data: 'created_at' },
  });
  item.created = created.id;
  // secret: only for the Secret role (admins bypass)
  await setItemRoles(t.db, item.secret, 'INCLUDE_SELECTED_ROLES', [secretRole.id]);
  // a search item on the title field
  item.titleSearch = (
    await buildDisplayItem(t.db, entity, { dataFieldId: title.data.id, view: 'search' })
  ).id;
  // an item of the child entity (another entity)
  const childTitle = await buildDefField(t.db, envId, { type: 'text' });
  const childData = await buildDataField(t.db, childEntity, childTitle.id);
  item.childTitle = (
    await buildDisplayItem(t.db, childEntity, { dataFieldId: childData.id, view: 'list' })
  ).id;

  const v = (d: Record<string, unknown>) => ({
    [title.data.id]: d.title,
    [amount.data.id]: d.amount,
    [due.data.id]: d.due,
    [stamp.data.id]: d.stamp,
    [status.data.id]: d.status,
    [owner.data.id]: d.owner,
    [notes.data.id]: d.notes,
    [secret.data.id]: d.secret,
  });
  dossier.alpha = await insertDossier(
    entity.id,
    'Alpha case',
    v({
      title: 'Alpha 100% done_x',
      amount: 10,
      due: '2026-01-10',
      stamp: '2026-01-10T23:30:00.000Z', // 11 January in Amsterdam
      status: option.open,
      owner: a.user.id,
      notes: '<p>x</p>',
      secret: 1,
    }),
    { created_at: new Date('2026-01-01T10:00:00Z') },
  );
  dossier.beta = await insertDossier(
    entity.id,
    'Beta case',
    v({
      title: 'Beta',
      amount: 250.5,
      due: '2026-02-01',
      stamp: '2026-02-01T10:00:00.000Z',
      status: option.closed,
      owner: m.user.id,
      secret: 2,
    }),
    { created_at: new Date('2026-01-02T10:00:00Z') },
  );
  dossier.gamma = await insertDossier(
    entity.id,
    'Gamma case',
    v({
      title: "Gamma'; drop table content_dossier; --",
      amount: 99,
      due: '2026-03-15',
      status: option.open,
    }),
    { created_at: new Date('2026-01-03T10:00:00Z') },
  );
  dossier.archived = await insertDossier(
    entity.id,
    'Delta archived',
    v({ title: 'Delta', amount: 5, due: '2025-12-31', status: option.waiting }),
    { archived: true },
  );
  for (let i = 0; i < 21; i++)
    await insertDossier(entity.id, `Filler ${i}`, v({ title: `Filler ${i}`, amount: 1000 + i }));
  child.ann = await insertDossier(childEntity.id, 'Ann client', {});
  child.bob = await insertDossier(childEntity.id, 'Bob client', {});
  // Alpha -> Ann through the link; Beta <- Bob stored from the backlink side
  await t.db
    .insertInto('content_link')
    .values([
      { environment_id: envId, link_id: linkId, parent_id: dossier.alpha, child_id: child.ann },
      { environment_id: envId, link_id: backLinkId, parent_id: child.bob, child_id: dossier.beta },
      { environment_id: envId, link_id: linkId, parent_id: dossier.gamma, child_id: child.ann },
    ])
    .execute();
});

afterAll(async () => {
  await indexJobsIdle(t.db);
  await t.close();
});

const list = (client: TestClient, params: Record<string, string | string[]>) => {
  const search = new URLSearchParams({ defDossier: String(entityId), environment: String(envId) });
  for (const [key, value] of Object.entries(params))
    for (const one of Array.isArray(value) ? value : [value]) search.append(key, one);
  return client.get(`/api/contentdossier?${search}`);
};
const ids = (body: { results: { dossiers: { id: number }[] } }) => body.results.dossiers.map((d) => d.id);
async function ok(client: TestClient, params: Record<string, string | string[]>) {
  const response = await list(client, params);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('GET /api/contentdossier', () => {
  it('answers a page with dossiers, contents, items and pager, newest first', async () => {
    const body = await ok(admin, { limit: '10' });
    expect(body.pager).toEqual({ current: 0, pages: 3, items: 24, limit: 10 });
    expect(body.results.dossiers).toHaveLength(10);
    expect(ids(body)[0]).toBeGreaterThan(ids(body)[1]);
    const alpha = (await ok(admin, { [item.title]: 'alpha' })).results;
    expect(alpha.dossiers[0]).toMatchObject({
      id: dossier.alpha,
      summary: 'Alpha case',
      archived: false,
      created_by: { id: adminId, username: expect.any(String) },
    });
    const content = alpha.contents[String(dossier.alpha)];
    expect(content[item.amount]).toBe(10);
    expect(content[item.status]).toBe(option.open);
    expect(content[item.created]).toBe('2026-01-01T10:00:00.000Z');
    expect(content[item.clients]).toEqual([
      { id: child.ann, summary: 'Ann client', def_dossier_id: childEntityId, archived: false },
    ]);
    expect(alpha.items.map((i: { id: number }) => i.id)).toContain(item.secret);
  });

  it('pages through the set with any limit from 1 to 500; 400 outside', async () => {
    const first = await ok(admin, { limit: '10', page: '0' });
    const third = await ok(admin, { limit: '10', page: '2' });
    expect(third.results.dossiers).toHaveLength(4);
    expect(ids(third)).not.toContain(ids(first)[0]);
    const two = await ok(admin, { limit: '2' });
    expect(two.results.dossiers).toHaveLength(2);
    expect(two.pager).toEqual({ current: 0, pages: 12, items: 24, limit: 2 });
    expect((await ok(admin, { limit: '500' })).pager.limit).toBe(500);
    expect((await ok(admin, { page: '-1' })).pager).toMatchObject({ limit: 50, current: 0 });
    for (const limit of ['0', '501', '1000', '2.5', 'abc', '']) {
      const refused = await list(admin, { limit });
      expect(refused.statusCode, `limit=${limit}`).toBe(400);
      expect(refused.json(), `limit=${limit}`).toEqual({ errors: { limit: LIST_LIMIT_MESSAGE } });
    }
  });

  it('filters text (contains, wildcards literal), amount ranges, list, user, link', async () => {
    expect(ids(await ok(admin, { [item.title]: 'ALPHA' }))).toEqual([dossier.alpha]);
    expect(ids(await ok(admin, { [item.title]: '100%' }))).toEqual([dossier.alpha]);
    expect(ids(await ok(admin, { [item.title]: 'e_x' }))).toEqual([dossier.alpha]);
    expect(ids(await ok(admin, { [item.title]: '%' }))).toEqual([dossier.alpha]);
    expect(ids(await ok(admin, { [item.titleSearch]: 'beta' }))).toEqual([dossier.beta]);
    expect(
      ids(await ok(admin, { [`${item.amount}_min`]: '10', [`${item.amount}_max`]: '99' })).sort(),
    ).toEqual([dossier.alpha, dossier.gamma].sort());
    expect(ids(await ok(admin, { [`${item.amount}_min`]: '250,5', [`${item.amount}_max`]: '251' }))).toEqual([
      dossier.beta,
    ]);
    expect(ids(await ok(admin, { [item.status]: String(option.open) })).sort()).toEqual(
      [dossier.alpha, dossier.gamma].sort(),
    );
    expect(ids(await ok(admin, { [item.status]: `${option.open},${option.closed}` }))).toHaveLength(3);
    expect(ids(await ok(admin, { [item.owner]: String(adminId) }))).toEqual([dossier.alpha]);
    expect(ids(await ok(admin, { [item.clients]: String(child.ann) })).sort()).toEqual(
      [dossier.alpha, dossier.gamma].sort(),
    );
    expect(ids(await ok(admin, { [item.clients]: String(child.bob) }))).toEqual([dossier.beta]);
    // empty values are dropped
    expect((await ok(admin, { [item.title]: '', limit: '10' })).pager.items).toBe(24);
  });

  it('filters dates on, after, before, between (date and date-time in Amsterdam days, dossier data)', async () => {
    const due = (p: Record<string, string>) => ok(admin, p).then(ids);
    expect(await due({ [item.due]: '2026-01-10' })).toEqual([dossier.alpha]);
    expect(await due({ [item.due]: '10-01-2026', [`${item.due}_type`]: 'on' })).toEqual([dossier.alpha]);
    expect((await due({ [item.due]: '2026-01-10', [`${item.due}_type`]: 'after' })).sort()).toEqual(
      [dossier.beta, dossier.gamma].sort(),
    );
    expect(await due({ [item.due]: '2026-01-11', [`${item.due}_type`]: 'before' })).toEqual([dossier.alpha]);
    expect(
      (
        await due({
          [item.due]: '2026-01-10',
          [`${item.due}_type`]: 'between',
          [`${item.due}_end`]: '2026-02-01',
        })
      ).sort(),
    ).toEqual([dossier.alpha, dossier.beta].sort());
    expect(await due({ [item.stamp]: '2026-01-11' })).toEqual([dossier.alpha]);
    expect(await due({ [item.stamp]: '2026-01-10' })).toEqual([]);
    expect(await due({ [item.created]: '2026-01-02' })).toEqual([dossier.beta]);
    const bad = await list(admin, { [item.due]: 'yesterday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[String(item.due)]).toBeTruthy();
    const noEnd = await list(admin, { [item.due]: '2026-01-10', [`${item.due}_type`]: 'between' });
    expect(noEnd.json().errors[`${item.due}_end`]).toBeTruthy();
  });

  it('sorts by field and by dossier data, ascending and descending', async () => {
    const base = { [`${item.amount}_max`]: '300' };
    expect(ids(await ok(admin, { ...base, 'sort[]': String(item.amount), 'sortOrder[]': 'ASC' }))).toEqual([
      dossier.alpha,
      dossier.gamma,
      dossier.beta,
    ]);
    expect(ids(await ok(admin, { ...base, 'sort[]': String(item.due), 'sortOrder[]': 'DESC' }))).toEqual([
      dossier.gamma,
      dossier.beta,
      dossier.alpha,
    ]);
    expect(ids(await ok(admin, { ...base, 'sort[]': 'created_at', 'sortOrder[]': 'ASC' }))).toEqual([
      dossier.alpha,
      dossier.beta,
      dossier.gamma,
    ]);
    expect(ids(await ok(admin, { ...base, 'sort[]': 'summary', 'sortOrder[]': 'DESC' }))).toEqual([
      dossier.gamma,
      dossier.beta,
      dossier.alpha,
    ]);
    expect(ids(await ok(admin, { ...base, 'sort[]': `dfl_${linkId}` }))[0]).toBe(dossier.alpha);
    const textarea = await list(admin, { 'sort[]': String(item.notes) });
    expect(textarea.statusCode).toBe(400);
    expect(textarea.json()).toEqual({ errors: { sort: 'This field cannot be sorted' } });
  });

  it('lists not archived, both or only archived', async () => {
    expect((await ok(admin, {})).pager.items).toBe(24);
    expect((await ok(admin, { archived: 'both' })).pager.items).toBe(25);
    expect(ids(await ok(admin, { archived: 'only' }))).toEqual([dossier.archived]);
  });

  it('aggregates amounts, dates, list options and links over the filtered set', async () => {
    const body = await ok(admin, {
      [`${item.amount}_max`]: '300',
      [`${item.amount}_aggregate`]: 'sum',
      [`${item.due}_aggregate`]: 'max',
      [`${item.status}_aggregate`]: 'unique',
      [`${item.clients}_aggregate`]: 'unique',
    });
    const byId = Object.fromEntries(body.results.aggregations.map((a: { id: number }) => [a.id, a]));
    expect(byId[item.amount]).toEqual({ id: item.amount, aggregate: 'sum', value: 359.5 });
    expect(byId[item.due].value).toBe('2026-03-15');
    expect(byId[item.status]).toMatchObject({
      value: 3,
      options: [
        { id: option.open, total: 2 },
        { id: option.closed, total: 1 },
      ],
    });
    expect(byId[item.clients].value).toBe(2);
    const avg = await ok(admin, { [`${item.amount}_max`]: '300', [`${item.amount}_aggregate`]: 'avg' });
    expect(avg.results.aggregations[0].value).toBeCloseTo(119.833, 2);
    const wrong = await list(admin, { [`${item.title}_aggregate`]: 'sum' });
    expect(wrong.json()).toEqual({ errors: { [`${item.title}_aggregate`]: 'Unknown aggregation' } });

    // an option hidden from the member's role is left out of their per-option counts, not the admin's
    await t.db
      .updateTable('def_field_list')
      .set({ settings: { roles: [readerRoleId] } })
      .where('id', '=', option.closed)
      .execute();
    const statusCounts = async (client: TestClient) =>
      (
        await ok(client, { [`${item.amount}_max`]: '300', [`${item.status}_aggregate`]: 'unique' })
      ).results.aggregations[0].options.map((o: { id: number }) => o.id);
    expect(await statusCounts(member)).toEqual([option.open]);
    expect(await statusCounts(admin)).toEqual([option.open, option.closed]);
    await t.db
      .updateTable('def_field_list')
      .set({ settings: { roles: [] } })
      .where('id', '=', option.closed)
      .execute();
  });

  it('lists the dossiers linked to a parent through a link (both directions)', async () => {
    const search = (parent: number, link: number) =>
      admin.get(
        `/api/contentdossier?defDossier=${childEntityId}&environment=${envId}&embedded=${parent}&linkId=${link}`,
      );
    const viaForward = await search(dossier.alpha, linkId);
    expect(viaForward.statusCode, viaForward.body).toBe(200);
    expect(ids(viaForward.json())).toEqual([child.ann]);
    expect(ids((await search(dossier.beta, linkId)).json())).toEqual([child.bob]);
    // the other way: the cases of a client through the backlink
    const cases = await admin.get(
      `/api/contentdossier?defDossier=${entityId}&environment=${envId}&embedded=${child.ann}&linkId=${backLinkId}`,
    );
    expect(ids(cases.json()).sort()).toEqual([dossier.alpha, dossier.gamma].sort());
    // a link that does not lead to this entity, a parent of another entity
    expect((await search(dossier.alpha, backLinkId)).statusCode).toBe(400);
    expect((await search(child.ann, linkId)).statusCode).toBe(400);
  });

  it('refuses unknown ids, items of another entity and hidden items alike, without leaking', async () => {
    for (const key of ['999999', String(item.childTitle), String(item.secret)]) {
      const response = await list(member, { [key]: '1' });
      expect(response.statusCode, key).toBe(400);
      expect(response.json()).toEqual({ errors: { [key]: 'Unknown field' } });
    }
    const hiddenSort = await list(member, { 'sort[]': String(item.secret) });
    expect(hiddenSort.json()).toEqual({ errors: { sort: 'Unknown field' } });
    const hiddenAggregate = await list(member, { [`${item.secret}_aggregate`]: 'sum' });
    expect(hiddenAggregate.statusCode).toBe(400);
    const body = await ok(member, { [item.title]: 'alpha' });
    expect(body.results.items.map((i: { id: number }) => i.id)).not.toContain(item.secret);
    expect(Object.keys(body.results.contents[String(dossier.alpha)])).not.toContain(String(item.secret));
    expect(JSON.stringify(body)).not.toContain('"secret"');
    expect((await list(admin, { 'sort[]': 'password' })).statusCode).toBe(400);
    expect((await list(admin, { 'sort[]': String(item.amount), 'sortOrder[]': 'sideways' })).statusCode).toBe(
      400,
    );
  });

  it('treats SQL-looking values as data', async () => {
    expect(ids(await ok(admin, { [item.title]: "'; drop table content_dossier; --" }))).toEqual([
      dossier.gamma,
    ]);
    expect((await list(admin, { [item.status]: '1 or 1=1' })).statusCode).toBe(400);
    expect((await list(admin, { [`${item.amount}_min`]: '0); delete from app_user; --' })).statusCode).toBe(
      400,
    );
    expect(ids(await ok(admin, { summary: "x' or '1'='1" }))).toEqual([]);
    expect((await ok(admin, { limit: '10' })).pager.items).toBe(24);
  });

  it('refuses a saved query, as none can exist yet, instead of ignoring it', async () => {
    const response = await list(admin, { dossierQuery: '7' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { dossierQuery: 'Unknown query' } });
    expect((await ok(admin, { dossierQuery: '' })).pager.items).toBe(24);
  });

  it('quick text on the summary', async () => {
    expect(ids(await ok(admin, { summary: 'gamma' }))).toEqual([dossier.gamma]);
  });

  it('needs membership and show on the entity', async () => {
    const refused = await list(noShow, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: FORBIDDEN_MESSAGE });
    expect((await list(outsider, {})).statusCode).toBe(404);
    expect((await t.client().get(`/api/contentdossier?defDossier=${entityId}`)).statusCode).toBe(401);
    expect((await admin.get('/api/contentdossier?defDossier=abc')).statusCode).toBe(400);
    expect((await ok(member, {})).pager.items).toBe(24);
  });

  it('reads the user and the environment together, with every check of each', async () => {
    // the outsider is admin of another environment: naming this one, or one that does not exist
    const other = await outsider.get(`/api/contentdossier?defDossier=${entityId}&environment=${envId}`);
    expect(other.statusCode).toBe(404);
    const missing = await admin.get(`/api/contentdossier?defDossier=${entityId}&environment=999999`);
    expect(missing.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    // a user switched off after signing in is refused at once, token or not
    const { user, client } = await t.signIn();
    await t.db
      .insertInto('environment_user')
      .values({ environment_id: envId, user_id: user.id, credentials: ['environment-admin'], role_ids: [] })
      .execute();
    expect((await list(client, {})).statusCode).toBe(200);
    await t.db.updateTable('app_user').set({ active: false }).where('id', '=', user.id).execute();
    expect((await list(client, {})).statusCode).toBe(401);
  });
});

describe('list parameters parsed once per reader class and configuration (query/list-params-cache.ts)', () => {
  it('a field hidden from the reader after a list filtered on it is refused on the very next call', async () => {
    const filtered = { [`${item.amount}_min`]: '100', 'sort[]': String(item.amount) };
    const before = await ok(member, filtered);
    expect(before.pager.items).toBeGreaterThan(0);
    expect(ids(await ok(member, filtered))).toEqual(ids(before));
    const hidden = await buildRole(t.db, envId, 'Amount readers');
    await setItemRoles(t.db, item.amount, 'INCLUDE_SELECTED_ROLES', [hidden.id]);
    try {
      const refused = await list(member, filtered);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().errors).toMatchObject({ [`${item.amount}_min`]: 'Unknown field' });
      // the admin's standing is another reader class: still allowed
      expect((await ok(admin, filtered)).pager.items).toBe(before.pager.items);
    } finally {
      await setItemRoles(t.db, item.amount, 'EXCLUDE_SELECTED_ROLES', []);
    }
    expect(ids(await ok(member, filtered))).toEqual(ids(before));
  });

  it('the same filters on another page, or with another page size, read that page', async () => {
    const filtered = { [`${item.amount}_min`]: '1', 'sort[]': String(item.amount) };
    const all = ids(await ok(member, { ...filtered, limit: '500' }));
    expect(all.length).toBeGreaterThan(3);
    const pages = [];
    for (const page of ['0', '1', '2'])
      pages.push(...ids(await ok(member, { ...filtered, limit: '1', page })));
    expect(pages).toEqual(all.slice(0, 3));
    const second = await ok(member, { ...filtered, limit: '2', page: '1' });
    expect(ids(second)).toEqual(all.slice(2, 4));
    expect(second.pager).toMatchObject({ current: 1, limit: 2, items: all.length });
  });
});

describe('cached counts and aggregations', () => {
  it('follow every write: insert, update, archive, delete and links, on any path', async () => {
    const amountItem = await t.db
      .selectFrom('display_item')
      .select('def_dossier_def_field_id')
      .where('id', '=', item.amount)
      .executeTakeFirstOrThrow();
    const amountKey = String(amountItem.def_dossier_def_field_id);
    const figures = async () => {
      const body = await ok(admin, { [`${item.amount}_aggregate`]: 'sum', limit: '10' });
      return { items: body.pager.items as number, sum: body.results.aggregations[0].value as number };
    };
    const before = await figures();
    // asked twice: the second answer comes from the cache and is the same
    expect(await figures()).toEqual(before);

    const extra = await insertDossier(entityId, 'Cache probe', { [amountKey]: 7 });
    expect(await figures()).toEqual({ items: before.items + 1, sum: before.sum + 7 });
    await t.db
      .updateTable('content_dossier')
      .set({ values: JSON.stringify({ [amountKey]: 9 }) as never })
      .where('id', '=', extra)
      .execute();
    expect(await figures()).toEqual({ items: before.items + 1, sum: before.sum + 9 });
    await t.db.updateTable('content_dossier').set({ archived: true }).where('id', '=', extra).execute();
    expect(await figures()).toEqual(before);
    const embedded = { embedded: String(child.ann), linkId: String(backLinkId) };
    const linkedBefore = (await ok(admin, embedded)).pager.items as number;
    await t.db
      .insertInto('content_link')
      .values({ environment_id: envId, link_id: linkId, parent_id: dossier.beta, child_id: child.ann })
      .execute();
    expect((await ok(admin, embedded)).pager.items).toBe(linkedBefore + 1);
    await t.db
      .deleteFrom('content_link')
      .where('link_id', '=', linkId)
      .where('parent_id', '=', dossier.beta)
      .where('child_id', '=', child.ann)
      .execute();
    expect((await ok(admin, embedded)).pager.items).toBe(linkedBefore);
    await t.db.deleteFrom('content_dossier').where('id', '=', extra).execute();
    expect(await figures()).toEqual(before);
  });
});

describe('the linked dossiers of a page (kept per node under their entity data version)', () => {
  it('follow every write to the linked dossier and to the links, on any path', async () => {
    const clientsOfAlpha = async () =>
      (await ok(admin, { [item.title]: 'alpha' })).results.contents[String(dossier.alpha)][item.clients];
    const ann = { id: child.ann, summary: 'Ann client', def_dossier_id: childEntityId, archived: false };
    expect(await clientsOfAlpha()).toEqual([ann]);
    expect(await clientsOfAlpha()).toEqual([ann]);
    const setAnn = (values: { summary?: string; archived?: boolean }) =>
      t.db.updateTable('content_dossier').set(values).where('id', '=', child.ann).execute();
    try {
      await setAnn({ summary: 'Ann renamed' });
      expect(await clientsOfAlpha()).toEqual([{ ...ann, summary: 'Ann renamed' }]);
      await setAnn({ archived: true });
      expect(await clientsOfAlpha()).toEqual([{ ...ann, summary: 'Ann renamed', archived: true }]);
    } finally {
      await setAnn({ summary: 'Ann client', archived: false });
    }
    expect(await clientsOfAlpha()).toEqual([ann]);
    // a second client, stored from the backlink side
    const linkBob = (rank: number) =>
      t.db
        .insertInto('content_link')
        .values({
          environment_id: envId,
          link_id: backLinkId,
          parent_id: child.bob,
          child_id: dossier.alpha,
          rank,
        })
        .execute();
    const unlinkBob = () =>
      t.db
        .deleteFrom('content_link')
        .where('parent_id', '=', child.bob)
        .where('child_id', '=', dossier.alpha)
        .execute();
    const bob = { id: child.bob, summary: 'Bob client', def_dossier_id: childEntityId, archived: false };
    await linkBob(9);
    expect(await clientsOfAlpha()).toEqual([ann, bob]);
    await unlinkBob();
    expect(await clientsOfAlpha()).toEqual([ann]);
    // stored after Ann but ranked before her: the rank orders them, not the order they were stored in
    await linkBob(-1);
    expect(await clientsOfAlpha()).toEqual([bob, ann]);
    await unlinkBob();
    expect(await clientsOfAlpha()).toEqual([ann]);
  });

  it.runIf(onPostgresServer())(
    'reads them in no statement of its own while their entity is unchanged',
    async () => {
      await ok(admin, {});
      const sent = await statementsOf(() => ok(admin, {}));
      expect(sent.filter((text) => text.includes('content_link'))).toEqual([]);
      expect(sent.filter((text) => text.includes('d.summaries'))).toEqual([]);
      // a write to a client: the page's linked clients are read again, once; which ones it links to not
      await t.db
        .updateTable('content_dossier')
        .set({ summary: 'Bob client' })
        .where('id', '=', child.bob)
        .execute();
      const after = await statementsOf(() => ok(admin, {}));
      expect(after.filter((text) => text.includes('d.summaries'))).toHaveLength(1);
      expect(after.filter((text) => text.includes('content_link'))).toEqual([]);
      // a write to a link of the page's entity: the rows' links are read again, once, then kept
      await t.db
        .updateTable('content_link')
        .set({ rank: 0 })
        .where('parent_id', '=', dossier.alpha)
        .execute();
      const changed = await statementsOf(() => ok(admin, {}));
      expect(changed.filter((text) => text.includes('content_link'))).toHaveLength(1);
      const again = await statementsOf(() => ok(admin, {}));
      expect(again.filter((text) => text.includes('content_link'))).toEqual([]);
    },
  );
});

describe('GET /api/contentdossier/search', () => {
  it('finds summaries of the entities the user may show', async () => {
    const response = await admin.get(
      `/api/contentdossier/search?environment=${envId}&search=client&limit=10`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const hits = response.json();
    expect(hits.map((h: { id: number }) => h.id).sort()).toEqual([child.ann, child.bob].sort());
    expect(hits[0]).toEqual({
      id: expect.any(Number),
      summary: expect.stringContaining('client'),
      def_dossier_id: childEntityId,
      created_at: expect.any(String),
    });
    const memberHits = await member.get(`/api/contentdossier/search?environment=${envId}&search=case`);
    expect(memberHits.json()).toHaveLength(3); // archived Delta is left out
    // a short text found among the newest dossiers: the same newest matches as the index gives
    const newest = await member.get(`/api/contentdossier/search?environment=${envId}&search=case&limit=2`);
    expect(newest.json().map((h: { id: number }) => h.id)).toEqual(
      memberHits
        .json()
        .map((h: { id: number }) => h.id)
        .slice(0, 2),
    );
    const none = await noShow.get(`/api/contentdossier/search?environment=${envId}&search=case`);
    expect(none.json()).toEqual([]);
    const wild = await admin.get(`/api/contentdossier/search?environment=${envId}&search=%25`);
    expect(wild.json()).toEqual([]);
    expect(
      (await outsider.get(`/api/contentdossier/search?environment=${envId}&search=case`)).statusCode,
    ).toBe(404);
  });

  it('is refused without the quick_search credential', async () => {
    const withoutCredential = await t.signIn();
    await addMember(t.db, envId, {
      user: withoutCredential.user,
      roleIds: [readerRoleId],
      credentials: ['export'],
    });
    const refused = await withoutCredential.client.get(
      `/api/contentdossier/search?environment=${envId}&search=case`,
    );
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ message: '403_general_message' });
  });
});
