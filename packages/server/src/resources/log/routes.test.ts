import { LOG_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setItemRoles } from '../../../test/entity-factories';
import { expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { dossierSetup } from '../content-dossier/fixture';

// GET /api/log: the environment's change log for its admins, one dossier's for holders of `dossierlog`,
// without the changes of items the reader may not see.

let t: TestApp;
let s: Awaited<ReturnType<typeof dossierSetup>>;
let dossier: number;
let other: number;
const key = (item: { id: number }) => String(item.id);

beforeAll(async () => {
  t = await createTestApp();
  s = await dossierSetup(t);
  const created = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: { [key(s.fields.name.item)]: 'Logged client', [key(s.fields.amount.item)]: '12.50' },
  });
  expect(created.statusCode, created.body).toBe(201);
  dossier = created.json().id;
  const changed = await put(s.admin, `/api/contentdossier/${dossier}`, {
    values: { [key(s.fields.amount.item)]: '99.00', [key(s.fields.notes.item)]: 'secret note' },
  });
  expect(changed.statusCode, changed.body).toBe(200);
  const second = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: { [key(s.fields.name.item)]: 'Other client' },
  });
  other = second.json().id;
});
afterAll(() => t.close());

const url = (query: Record<string, string | number>) =>
  `/api/log?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

test("an admin reads the environment's log, newest first, filtered by dossier, type, entity, user and day", async () => {
  const all = await s.admin.get(url({ environment: s.environment.id }));
  expect(all.statusCode, all.body).toBe(200);
  const body = all.json();
  expect(body.pager).toEqual({ current: 0, pages: 1, items: 3, limit: 50 });
  expect(body.results.map((r: { dossier: { id: number } }) => r.dossier.id)).toEqual([
    other,
    dossier,
    dossier,
  ]);
  const change = body.results[1];
  expect(change).toMatchObject({ type: 'change', dossier: { id: dossier, def_dossier_id: s.client.id } });
  expect(change.dossier.summary).toContain('Logged client');
  expect(change.user.username).toEqual(expect.any(String));
  expect(change.changes).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'amount', new_value: 99 }),
      expect.objectContaining({ name: 'notes', old_value: null, new_value: 'secret note' }),
    ]),
  );

  const count = async (query: Record<string, string | number>) =>
    (await s.admin.get(url({ environment: s.environment.id, ...query }))).json().pager.items;
  expect(await count({ dossier })).toBe(2);
  expect(await count({ type: 'change' })).toBe(1);
  expect(await count({ entity: s.project.id })).toBe(0);
  expect(await count({ user: change.user.id })).toBe(3);
  const today = new Date().toISOString().slice(0, 10);
  expect(await count({ from: today, to: today })).toBe(3);
  expect(await count({ to: '2000-01-01' })).toBe(0);
  expect(await count({ limit: 1, page: 2 })).toBe(3);

  const wrong = await s.admin.get(url({ environment: s.environment.id, from: '2026-13-40', type: 'rename' }));
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json().errors).toMatchObject({ from: LOG_MESSAGES.invalidDate, type: expect.any(String) });
  const reversed = await s.admin.get(url({ environment: s.environment.id, from: today, to: '2000-01-01' }));
  expect(reversed.json().errors).toEqual({ from: LOG_MESSAGES.fromAfterTo });
});

test("a member reads one dossier's log with dossierlog only, and never a hidden item's change", async () => {
  await s.grant(s.client, ['show']);
  expectForbidden(await s.member.get(url({ environment: s.environment.id, dossier })), 'without dossierlog');
  expectForbidden(await s.member.get(url({ environment: s.environment.id })), "the environment's log");

  await s.grant(s.client, ['show', 'dossierlog']);
  await setItemRoles(t.db, s.fields.notes.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
  const read = await s.member.get(url({ environment: s.environment.id, dossier }));
  expect(read.statusCode, read.body).toBe(200);
  const entries = read.json().results;
  expect(entries.map((e: { type: string }) => e.type)).toEqual(['change', 'create']);
  expect(entries[0].changes.map((c: { name: string }) => c.name)).toEqual(['amount']);
  expect(read.body).not.toContain('secret note');
  expectForbidden(await s.member.get(url({ environment: s.environment.id })), 'still not the whole log');
  await setItemRoles(t.db, s.fields.notes.item.id, 'EXCLUDE_SELECTED_ROLES', []);
});

test('another environment, its admin and an anonymous caller get nothing', async () => {
  expectNotFound(await s.outsider.get(url({ environment: s.environment.id })), "another tenant's log");
  expectNotFound(
    await s.outsider.get(url({ environment: s.otherEnvironment.id, dossier })),
    "another tenant's dossier in one's own environment",
  );
  expectNotFound(
    await s.admin.get(url({ environment: s.otherEnvironment.id })),
    'an environment the admin is not a member of',
  );
  expect((await t.client().get(url({ environment: s.environment.id }))).statusCode).toBe(401);
});

test('values as the field type displays them, several types and a user, the opening once an hour, no hidden item', async () => {
  await s.grant(s.client, ['show', 'dossierlog']);
  await s.grant(s.project, ['show']);
  const [alpha, beta] = s.projectsDossiers;
  const created = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: {
      [key(s.fields.name.item)]: 'Displayed client',
      [key(s.fields.list.item)]: s.options.red.id,
      [key(s.links.projectsItem)]: [alpha],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id: number = created.json().id;
  const changed = await put(s.admin, `/api/contentdossier/${id}`, {
    values: { [key(s.fields.list.item)]: s.options.blue.id, [key(s.links.projectsItem)]: [beta] },
  });
  expect(changed.statusCode, changed.body).toBe(200);

  // opened twice by the member and once by the admin: one 'shown' entry each
  for (const client of [s.member, s.member, s.admin])
    expect((await client.get(`/api/contentdossier/${id}`)).statusCode).toBe(200);
  // a tab's read is not an opening
  expect((await s.member.get(`/api/contentdossier/${id}?displayPosition=${s.tab.id}`)).statusCode).toBe(200);
  const base = url({ environment: s.environment.id, dossier: id });
  const read = async (extra = '') => {
    const response = await s.member.get(`${base}${extra}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const log = await read('&type=change&type=shown');
  expect(log.results.map((e: { type: string }) => e.type)).toEqual(['shown', 'shown', 'change']);
  expect(log.users).toHaveLength(2);
  expect(log.users).toContainEqual(expect.objectContaining({ id: s.memberId }));
  const change = log.results[2].changes;
  expect(change).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'colour', old_text: 'Red', new_text: 'Blue' }),
      expect.objectContaining({ name: 'projects', old_text: 'Alpha', new_text: 'Beta' }),
    ]),
  );
  const mine = await read(`&type=shown&user=${s.memberId}`);
  expect(mine.pager.items).toBe(1);
  // opened in several tabs at once: still one entry
  const other = (
    await s.admin.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [key(s.fields.name.item)]: 'Opened at once' },
    })
  ).json().id;
  await Promise.all([1, 2, 3, 4].map(() => s.member.get(`/api/contentdossier/${other}`)));
  const shown = await t.db
    .selectFrom('dossier_log')
    .select('id')
    .where('content_dossier_id', '=', other)
    .where('type', '=', 'shown')
    .execute();
  expect(shown).toHaveLength(1);

  // an hour later the next opening is logged again
  await t.db
    .updateTable('dossier_log')
    .set({ created_at: new Date(Date.now() - 2 * 3600_000) })
    .where('content_dossier_id', '=', id)
    .where('type', '=', 'shown')
    .execute();
  await s.member.get(`/api/contentdossier/${id}`);
  expect((await read(`&type=shown&user=${s.memberId}`)).pager.items).toBe(2);

  // the list item hidden from the member's role: neither its change nor its labels reach them
  await setItemRoles(t.db, s.fields.list.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
  const hidden = await s.member.get(`${base}&type=change&type=create`);
  expect(hidden.statusCode).toBe(200);
  expect(hidden.body).not.toContain('colour');
  expect(hidden.body).not.toContain('Blue');
  expect(hidden.body).toContain('Beta');
  await setItemRoles(t.db, s.fields.list.item.id, 'EXCLUDE_SELECTED_ROLES', []);
});
