import { DOSSIER_MESSAGES, type DossierDetail } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLink, buildListOption } from '../../../test/entity-factories';
import { expectForbidden, expectRefused } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, type DossierSetup, dossierSetup, insertDossier, key } from './fixture';
import { CONSTRAINT_MESSAGE } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createOk(s: DossierSetup, values: Record<string, unknown>) {
  const response = await s.admin.post('/api/contentdossier', { defDossier: s.client.id, values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const row = (id: number) =>
  t.db.selectFrom('content_dossier').selectAll().where('id', '=', id).executeTakeFirst();
const logTypes = async (id: number) =>
  (
    await t.db
      .selectFrom('dossier_log')
      .select('type')
      .where('content_dossier_id', '=', id)
      .orderBy('id')
      .execute()
  ).map((r) => r.type);

describe('archive and dearchive', () => {
  test('needs archive permission and an archivable entity; logs', async () => {
    const s = await dossierSetup(t);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    expect((await s.admin.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(403);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    await s.grant(s.client, ['show']);
    expectForbidden(await s.member.post(`/api/contentdossier/${id}/archive`), 'member without archive');
    expectRefused(await s.outsider.post(`/api/contentdossier/${id}/archive`), 'outsider');
    await s.grant(s.client, ['show', 'archive']);
    expect((await s.member.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
    expect((await row(id))?.archived).toBe(true);
    const detail = (await s.member.get(`/api/contentdossier/${id}`)).json() as DossierDetail;
    expect(detail.dossier.archived).toBe(true);
    expect((await s.member.post(`/api/contentdossier/${id}/dearchive`)).statusCode).toBe(200);
    expect((await row(id))?.archived).toBe(false);
    // the member's opening of the archived dossier is logged too
    expect(await logTypes(id)).toEqual(['create', 'archive', 'shown', 'archive']);
  });
});

describe('archive cascade (a link with archiveCascadeRule archive)', () => {
  test('archiving the parent archives the children of those links, through every level, each logged', async () => {
    const s = await dossierSetup(t);
    const [p1, p2] = s.projectsDossiers;
    // Note: not archivable, so its dossiers are never archived (nobody could dearchive them)
    const note = await buildDefDossier(t.db, s.environment.id, { name: 'Note' });
    const task = await buildDefDossier(t.db, s.environment.id, { name: 'Task' });
    for (const entity of [s.client, s.project, task])
      await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', entity.id).execute();
    const notes = await buildLink(t.db, s.client, note);
    const tasks = await buildLink(t.db, s.project, task);
    // a link back from project to client: the cascade meets the client again and stops there
    const owner = await buildLink(t.db, s.project, s.client);
    for (const link of [s.links.projects, notes, tasks, owner])
      await t.db
        .updateTable('def_dossier_link')
        .set({ archive_cascade_rule: 'archive' })
        .where('id', '=', link.id)
        .execute();
    const id = await createOk(s, {
      [key(s.fields.name.item)]: 'Parent',
      [key(s.links.projectsItem)]: [p1],
      [key(s.links.leadItem)]: [p2],
    });
    const n1 = await insertDossier(t, note, 'N1');
    const t1 = await insertDossier(t, task, 'T1');
    const t2 = await insertDossier(t, task, 'T2');
    await t.db
      .insertInto('content_link')
      .values([
        { environment_id: s.environment.id, link_id: notes.id, parent_id: id, child_id: n1, rank: 0 },
        { environment_id: s.environment.id, link_id: tasks.id, parent_id: p1, child_id: t1, rank: 0 },
        { environment_id: s.environment.id, link_id: tasks.id, parent_id: p2, child_id: t2, rank: 0 },
        { environment_id: s.environment.id, link_id: owner.id, parent_id: p1, child_id: id, rank: 0 },
      ])
      .execute();
    const archived = async () =>
      Object.fromEntries(
        await Promise.all([id, p1, p2, n1, t1, t2].map(async (d) => [d, (await row(d))?.archived])),
      );

    await s.grant(s.client, ['show', 'archive']);
    expect((await s.member.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
    // p1 through projects (archive), t1 through tasks; p2 only through lead (no rule), n1 not archivable
    expect(await archived()).toEqual({
      [id]: true,
      [p1]: true,
      [p2]: false,
      [n1]: false,
      [t1]: true,
      [t2]: false,
    });
    expect(await logTypes(id)).toEqual(['create', 'archive']);
    for (const child of [p1, t1]) {
      const [log] = await t.db
        .selectFrom('dossier_log')
        .selectAll()
        .where('content_dossier_id', '=', child)
        .execute();
      expect(log).toMatchObject({
        type: 'archive',
        environment_id: s.environment.id,
        def_dossier_id: child === p1 ? s.project.id : task.id,
        username: expect.any(String),
        changes: [{ defDisplayItemName: 'archived', oldValue: false, newValue: true }],
      });
    }

    // the spec names no cascade for dearchive: the children stay archived
    expect((await s.member.post(`/api/contentdossier/${id}/dearchive`)).statusCode).toBe(200);
    expect(await archived()).toEqual({
      [id]: false,
      [p1]: true,
      [p2]: false,
      [n1]: false,
      [t1]: true,
      [t2]: false,
    });
    // archiving again: the children already archived are not logged twice
    expect((await s.member.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
    expect(await logTypes(p1)).toEqual(['archive']);
  });
});

describe('DELETE /api/contentdossier/{id}', () => {
  test('maintain keeps linked children, delete removes them, constraint refuses', async () => {
    const s = await dossierSetup(t);
    const [p1, p2] = s.projectsDossiers;
    const values = (links: number[]) => ({
      [key(s.fields.name.item)]: `C${links.join('')}`,
      [key(s.links.projectsItem)]: links,
    });

    // maintain (the default)
    const a = await createOk(s, values([p1]));
    expectForbidden(await s.member.delete(`/api/contentdossier/${a}`), 'member without delete');
    expectRefused(await s.outsider.delete(`/api/contentdossier/${a}`), 'outsider');
    expect((await s.admin.delete(`/api/contentdossier/${a}`)).statusCode).toBe(200);
    expect(await row(a)).toBeUndefined();
    expect(await row(p1)).toBeDefined();
    expect(await logTypes(a)).toEqual(['create', 'delete']);

    // constraint
    await t.db
      .updateTable('def_dossier_link')
      .set({ cascade_rule: 'constraint' })
      .where('id', '=', s.links.projects.id)
      .execute();
    const b = await createOk(s, values([p1]));
    const refused = await s.admin.delete(`/api/contentdossier/${b}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: { dossier: CONSTRAINT_MESSAGE } });
    expect(await row(b)).toBeDefined();

    // delete
    await t.db
      .updateTable('def_dossier_link')
      .set({ cascade_rule: 'delete' })
      .where('id', '=', s.links.projects.id)
      .execute();
    await t.db.deleteFrom('content_link').where('parent_id', '=', b).execute();
    const c = await createOk(s, values([p2]));
    await s.grant(s.client, ['show', 'delete']);
    expect((await s.member.delete(`/api/contentdossier/${c}`)).statusCode).toBe(200);
    expect(await row(c)).toBeUndefined();
    expect(await row(p2)).toBeUndefined();
    expect(await logTypes(p2)).toEqual(['delete']);
    expect(await row(p1)).toBeDefined();
  });
});

describe('favourites and subscriptions', () => {
  test('switch on and off per user and show in the detail', async () => {
    const s = await dossierSetup(t);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    expectForbidden(await s.member.post(`/api/contentdossier/${id}/favorite`), 'member without show');
    expectRefused(await s.outsider.post(`/api/contentdossier/${id}/subscription/1`), 'outsider');
    expect((await s.admin.post(`/api/contentdossier/${id}/favorite`)).statusCode).toBe(200);
    expect((await s.admin.post(`/api/contentdossier/${id}/favorite`)).statusCode).toBe(200);
    const on = await s.admin.post(`/api/contentdossier/${id}/subscription/1`);
    expect(on.json()).toEqual({ result: true });
    expect((await s.admin.get(`/api/contentdossier/${id}`)).json()).toMatchObject({
      favorite: true,
      subscribed: true,
    });
    await s.grant(s.client, ['show']);
    expect((await s.member.get(`/api/contentdossier/${id}`)).json()).toMatchObject({
      favorite: false,
      subscribed: false,
    });
    expect((await s.admin.delete(`/api/contentdossier/${id}/favorite`)).statusCode).toBe(200);
    expect((await s.admin.post(`/api/contentdossier/${id}/subscription/0`)).json()).toEqual({
      result: false,
    });
    expect((await s.admin.get(`/api/contentdossier/${id}`)).json()).toMatchObject({
      favorite: false,
      subscribed: false,
    });
    expect((await s.admin.post(`/api/contentdossier/${id}/subscription/2`)).statusCode).toBe(400);
  });

  test("a list's bells: the user's own subscriptions among the given dossiers, in their environment only", async () => {
    const s = await dossierSetup(t);
    const [a, b] = [
      await createOk(s, { [key(s.fields.name.item)]: 'A' }),
      await createOk(s, { [key(s.fields.name.item)]: 'B' }),
    ];
    await s.grant(s.client, ['show']);
    expect((await s.member.post(`/api/contentdossier/${b}/subscription/1`)).statusCode).toBe(200);
    expect((await s.admin.post(`/api/contentdossier/${a}/subscription/1`)).statusCode).toBe(200);
    const among = (client: typeof s.member, environment: number) =>
      client.post('/api/contentdossier/subscriptions', { environment, ids: [a, b] });
    expect((await among(s.member, s.environment.id)).json()).toEqual([{ content_dossier_id: b }]);
    expect((await among(s.admin, s.environment.id)).json()).toEqual([{ content_dossier_id: a }]);
    expectRefused(await among(s.outsider, s.environment.id), 'outsider');
    // the outsider's own environment knows none of these dossiers
    expect((await among(s.outsider, s.otherEnvironment.id)).json()).toEqual([]);
  });
});

describe('archive, dearchive and subscription change state only by POST with the CSRF header', () => {
  const subscribers = (id: number) =>
    t.db.selectFrom('dossier_subscription').select('user_id').where('content_dossier_id', '=', id).execute();

  async function archivableDossier() {
    const s = await dossierSetup(t);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    return { s, id: await createOk(s, { [key(s.fields.name.item)]: 'A' }) };
  }

  test('GET answers 404 and changes nothing (a link or an image elsewhere is harmless)', async () => {
    const { s, id } = await archivableDossier();
    for (const path of ['archive', 'subscription/1']) {
      expect((await s.admin.get(`/api/contentdossier/${id}/${path}`)).statusCode, path).toBe(404);
    }
    expect((await row(id))?.archived).toBe(false);
    expect(await subscribers(id)).toEqual([]);

    expect((await s.admin.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
    expect((await s.admin.post(`/api/contentdossier/${id}/subscription/1`)).statusCode).toBe(200);
    for (const path of ['dearchive', 'subscription/0']) {
      expect((await s.admin.get(`/api/contentdossier/${id}/${path}`)).statusCode, path).toBe(404);
    }
    expect((await row(id))?.archived).toBe(true);
    expect(await subscribers(id)).toHaveLength(1);
    expect(await logTypes(id)).toEqual(['create', 'archive']);
  });

  test('POST without X-Requested-With answers 403 and changes nothing', async () => {
    const { s, id } = await archivableDossier();
    s.admin.csrf = false;
    try {
      for (const path of ['archive', 'subscription/1']) {
        expect((await s.admin.post(`/api/contentdossier/${id}/${path}`)).statusCode, path).toBe(403);
      }
      expect((await row(id))?.archived).toBe(false);
      expect(await subscribers(id)).toEqual([]);

      s.admin.csrf = true;
      expect((await s.admin.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
      expect((await s.admin.post(`/api/contentdossier/${id}/subscription/1`)).statusCode).toBe(200);
      s.admin.csrf = false;
      for (const path of ['dearchive', 'subscription/0']) {
        expect((await s.admin.post(`/api/contentdossier/${id}/${path}`)).statusCode, path).toBe(403);
      }
      expect((await row(id))?.archived).toBe(true);
      expect(await subscribers(id)).toHaveLength(1);
      expect(await logTypes(id)).toEqual(['create', 'archive']);
    } finally {
      s.admin.csrf = true;
    }
  });
});

describe('/api/contentlist', () => {
  test('set, add and remove options of list items; logged as changes', async () => {
    const s = await dossierSetup(t);
    const multi = await addField(t, s.client, s.main.id, 'list', 'tags', { settings: { multiple: true } });
    const [x, y, z] = await Promise.all(
      ['X', 'Y', 'Z'].map((text) => buildListOption(t.db, multi.base.id, { text })),
    );
    const id = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    const base = `/api/contentlist/${id}`;
    const storedValue = async (dataFieldId: number) =>
      ((await row(id))?.values as Record<string, unknown> | undefined)?.[String(dataFieldId)];

    expect(
      (await s.admin.post(`${base}/${s.fields.list.item.id}/set`, { values: [s.options.blue.id] }))
        .statusCode,
    ).toBe(200);
    expect(await storedValue(s.fields.list.dataField.id)).toBe(s.options.blue.id);
    const two = await s.admin.post(`${base}/${s.fields.list.item.id}/set`, {
      values: [s.options.blue.id, s.options.red.id],
    });
    expect(two.statusCode).toBe(400);

    expect((await s.admin.post(`${base}/${multi.item.id}/set`, { values: [x.id] })).statusCode).toBe(200);
    expect((await s.admin.post(`${base}/${multi.item.id}/add`, { values: [y.id, z.id] })).statusCode).toBe(
      200,
    );
    expect(await storedValue(multi.dataField.id)).toEqual([x.id, y.id, z.id]);
    expect((await s.admin.delete(`${base}/${multi.item.id}/remove/${y.id}`)).statusCode).toBe(200);
    expect(await storedValue(multi.dataField.id)).toEqual([x.id, z.id]);

    // Another item that became obligatory later does not block a single-item change.
    await t.db
      .updateTable('def_dossier_def_field')
      .set({ obligatory: true })
      .where('id', '=', s.fields.email.dataField.id)
      .execute();
    expect((await s.admin.delete(`${base}/${multi.item.id}/remove/${z.id}`)).statusCode).toBe(200);
    expect(await storedValue(multi.dataField.id)).toEqual([x.id]);

    const unknown = await s.admin.post(`${base}/${multi.item.id}/add`, { values: [s.options.red.id] });
    expect(unknown.statusCode).toBe(400);
    const notList = await s.admin.post(`${base}/${s.fields.name.item.id}/set`, { values: [x.id] });
    expect(notList.json()).toEqual({ errors: { [key(s.fields.name.item)]: DOSSIER_MESSAGES.unknownItem } });
    await s.grant(s.client, ['show']);
    expectForbidden(
      await s.member.post(`${base}/${multi.item.id}/set`, { values: [] }),
      'member without edit',
    );
    expect(await logTypes(id)).toEqual(['create', 'change', 'change', 'change', 'change', 'change']);
  });
});

describe('credentials', () => {
  test('tabs_allowed per dossier and is-credential-allowed', async () => {
    const s = await dossierSetup(t);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    const project = s.projectsDossiers[0];
    const ask = (client: typeof s.admin) =>
      client.post('/api/displayposition/credentials', { defDossier: s.client.id, ids: [id, project] });
    expect((await ask(s.admin)).json()).toEqual([
      { id, tabs_allowed: true },
      { id: project, tabs_allowed: false },
    ]);
    expect((await ask(s.member)).json()).toEqual([
      { id, tabs_allowed: false },
      { id: project, tabs_allowed: false },
    ]);
    expectRefused(await ask(s.outsider), 'outsider');

    const allowed = async (client: typeof s.admin, dossier: number) =>
      (
        await client.get(
          `/api/contentdossier/is-credential-allowed?defDossier=${s.client.id}&credential=edit&dossier=${dossier}`,
        )
      ).json();
    expect(await allowed(s.admin, id)).toEqual({ allowed: true });
    expect(await allowed(s.admin, project)).toEqual({ allowed: false });
    expect(await allowed(s.member, id)).toEqual({ allowed: false });
    await s.grant(s.client, ['show', 'edit']);
    expect(await allowed(s.member, id)).toEqual({ allowed: true });
    await t.db.updateTable('content_dossier').set({ archived: true }).where('id', '=', id).execute();
    expect(await allowed(s.member, id)).toEqual({ allowed: false });
    const other = await insertDossier(t, s.project, 'x');
    expect(await allowed(s.member, other)).toEqual({ allowed: false });
  });
});
