import { DOSSIER_MESSAGES, type DossierDetail } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildDisplayPosition, setItemRoles } from '../../../test/entity-factories';
import { expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { visibleItems } from '../../policy/display-item';
import { openEnvironment } from '../../policy/environment';
import { addField, type DossierSetup, dossierSetup, insertDossier, key } from './fixture';
import { EMBEDDED_MESSAGES } from './links';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const create = (s: DossierSetup, values: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  s.admin.post('/api/contentdossier', { defDossier: s.client.id, values, ...extra });

async function createOk(s: DossierSetup, values: Record<string, unknown>) {
  const response = await create(s, values);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const stored = async (id: number) =>
  t.db.selectFrom('content_dossier').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /api/contentdossier', () => {
  test('stores every field type normalised, computes autoIncrement, calc and summary, logs', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const [p1, p2] = s.projectsDossiers;
    const id = await createOk(s, {
      [key(f.name.item)]: '  Jansen ',
      [key(f.notes.item)]: '<p>Hello <b>there</b><script>alert(1)</script><img src=x onerror=alert(1)></p>',
      [key(f.amount.item)]: '12,5',
      [key(f.date.item)]: '2026-03-15',
      [key(f.list.item)]: s.options.red.id,
      [key(f.user.item)]: s.memberId,
      [key(f.email.item)]: 'a@example.com',
      [key(f.url.item)]: 'https://example.com',
      [key(f.auto.item)]: 999,
      [key(f.calc.item)]: 1,
      [key(s.links.projectsItem)]: [p1, p2],
      [key(s.links.leadItem)]: [p2],
    });
    const row = await stored(id);
    const v = row.values as Record<string, unknown>;
    const df = (x: { dataField: { id: number } }) => String(x.dataField.id);
    expect(v[df(f.name)]).toBe('Jansen');
    // The script goes, and so do the handler and the relative image source; the image tag itself is allowed.
    expect(v[df(f.notes)]).toBe('<p>Hello <b>there</b><img /></p>');
    expect(v[df(f.amount)]).toBe(12.5);
    expect(v[df(f.date)]).toBe('2026-03-15');
    expect(v[df(f.list)]).toBe(s.options.red.id);
    expect(v[df(f.user)]).toBe(s.memberId);
    expect(v[df(f.email)]).toBe('a@example.com');
    expect(v[df(f.auto)]).toBe(1);
    expect(v[df(f.calc)]).toBe(25);
    expect(row.summary).toBe('Jansen C-1');
    expect(row.created_by).not.toBeNull();

    const second = await createOk(s, { [key(f.name.item)]: 'Pietersen' });
    expect(((await stored(second)).values as Record<string, unknown>)[df(f.auto)]).toBe(2);
    expect((await stored(second)).summary).toBe('Pietersen C-2');
    // without links the dossier and its log entry are written by one statement: the same entry
    const secondLog = await t.db
      .selectFrom('dossier_log')
      .selectAll()
      .where('content_dossier_id', '=', second)
      .execute();
    const secondRow = await stored(second);
    expect(secondLog).toHaveLength(1);
    expect(secondLog[0]).toMatchObject({
      type: 'create',
      def_dossier_id: s.client.id,
      environment_id: secondRow.environment_id,
      user_id: secondRow.created_by,
    });
    expect(secondLog[0].username).toBeTruthy();
    expect(secondLog[0].changes).toEqual([
      {
        displayItemId: s.fields.name.item.id,
        defDisplayItemName: 'name',
        oldValue: null,
        newValue: 'Pietersen',
      },
    ]);

    const links = await t.db
      .selectFrom('content_link')
      .select(['link_id', 'parent_id', 'child_id'])
      .where('parent_id', '=', id)
      .orderBy('id')
      .execute();
    expect(links.map((l) => [l.link_id, Number(l.child_id)])).toEqual([
      [s.links.projects.id, p1],
      [s.links.projects.id, p2],
      [s.links.lead.id, p2],
    ]);
    const log = await t.db
      .selectFrom('dossier_log')
      .selectAll()
      .where('content_dossier_id', '=', id)
      .execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'create', def_dossier_id: s.client.id });
    expect(log[0].changes).toContainEqual({
      displayItemId: s.fields.name.item.id,
      defDisplayItemName: 'name',
      oldValue: null,
      newValue: 'Jansen',
    });

    const detail = await s.admin.get(`/api/contentdossier/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json() as DossierDetail;
    expect(body.dossier).toMatchObject({
      id,
      summary: 'Jansen C-1',
      archived: false,
      def_dossier_id: s.client.id,
    });
    expect(body.content[key(f.name.item)]).toBe('Jansen');
    expect(body.content[key(s.links.projectsItem)]).toEqual([
      { id: p1, summary: 'Alpha', def_dossier_id: s.project.id, archived: false },
      { id: p2, summary: 'Beta', def_dossier_id: s.project.id, archived: false },
    ]);
    expect(body.items.map((i) => i.id)).toContain(f.extra.item.id);
    expect(body).toMatchObject({ subscribed: false, favorite: false });

    const tab = (await s.admin.get(`/api/contentdossier/${id}?displayPosition=${s.tab.id}`)).json();
    expect(tab.items.map((i: { id: number }) => i.id)).toEqual([f.extra.item.id]);
    expect(Object.keys(tab.content)).toEqual([key(f.extra.item)]);
  });

  test('field errors: wrong types, oversized values, unknown ids and links', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const other = await buildDefDossier(t.db, s.environment.id, { name: 'Other' });
    const foreign = await buildDisplayItem(t.db, other, { dataFieldId: f.name.dataField.id });
    const notProject = await insertDossier(t, other, 'not a project');
    const response = await create(s, {
      [key(f.name.item)]: 'x'.repeat(300),
      [key(f.amount.item)]: 'abc',
      [key(f.date.item)]: 'yesterday',
      [key(f.list.item)]: 999999,
      [key(f.email.item)]: 'not-an-email',
      [key(f.url.item)]: { href: 'x' },
      [key(foreign)]: 'x',
      '99999999': 'x',
      [key(s.links.leadItem)]: s.projectsDossiers,
      [key(s.links.projectsItem)]: [notProject],
    });
    expect(response.statusCode).toBe(400);
    const errors = response.json().errors;
    expect(Object.keys(errors).sort()).toEqual(
      [
        f.name.item,
        f.amount.item,
        f.date.item,
        f.list.item,
        f.email.item,
        f.url.item,
        foreign,
        { id: 99999999 },
        s.links.leadItem,
        s.links.projectsItem,
      ]
        .map(key)
        .sort(),
    );
    expect(errors[key(foreign)]).toBe(DOSSIER_MESSAGES.unknownItem);
    expect(errors['99999999']).toBe(DOSSIER_MESSAGES.unknownItem);
    expect(errors[key(s.links.leadItem)]).toBe(DOSSIER_MESSAGES.singleLink);
    expect(
      await t.db
        .selectFrom('content_dossier')
        .select('id')
        .where('def_dossier_id', '=', s.client.id)
        .execute(),
    ).toEqual([]);
  });

  test('a dossier of another environment cannot be linked', async () => {
    const s = await dossierSetup(t);
    const foreignProject = await buildDefDossier(t.db, s.otherEnvironment.id, { name: 'Project' });
    const foreign = await insertDossier(t, foreignProject, 'foreign');
    const foreignItem = await addField(
      t,
      foreignProject,
      (await buildDisplayPosition(t.db, foreignProject)).id,
      'text',
      'x',
    );
    const response = await create(s, {
      [key(s.fields.name.item)]: 'A',
      [key(s.links.leadItem)]: [foreign],
      [key(foreignItem.item)]: 'x',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      [key(s.links.leadItem)]: `Unknown dossier ${foreign}`,
      [key(foreignItem.item)]: DOSSIER_MESSAGES.unknownItem,
    });
    // Nor can the item of a foreign entity be written through it, nor its dossier read.
    const foreignDossier = await insertDossier(t, foreignProject, 'theirs');
    expectNotFound(await s.admin.get(`/api/contentdossier/${foreignDossier}`), 'foreign dossier');
    expectNotFound(
      await put(s.admin, `/api/contentdossier/${foreignDossier}`, { values: {} }),
      'foreign put',
    );
    expectNotFound(
      await s.admin.post('/api/contentdossier', { defDossier: foreignProject.id, values: {} }),
      'foreign entity',
    );
  });

  test('required: obligatory fields and require_fields conditions, not hidden items', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const missing = await create(s, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ [key(f.name.item)]: DOSSIER_MESSAGES.required });

    // email is required when colour is red; name is hidden unless colour is blue.
    await t.db
      .updateTable('def_dossier')
      .set({
        settings: {
          conditions: [
            {
              rules: [{ type: 'and', fields: [{ field: f.list.item.id, values: [s.options.red.id] }] }],
              actions: [{ type: 'require_fields', values: [f.email.item.id] }],
            },
            {
              rules: [{ type: 'and', fields: [{ field: f.list.item.id, values: [s.options.blue.id] }] }],
              actions: [{ type: 'show_fields', values: [f.name.item.id] }],
            },
          ],
        },
      })
      .where('id', '=', s.client.id)
      .execute();
    const red = await create(s, { [key(f.list.item)]: s.options.red.id });
    expect(red.statusCode).toBe(400);
    expect(red.json().errors).toEqual({ [key(f.email.item)]: DOSSIER_MESSAGES.required });
    const blue = await create(s, { [key(f.list.item)]: s.options.blue.id });
    expect(blue.json().errors).toEqual({ [key(f.name.item)]: DOSSIER_MESSAGES.required });
    const green = await create(s, { [key(f.list.item)]: s.options.red.id, [key(f.email.item)]: 'x@y.nl' });
    expect(green.statusCode, green.body).toBe(201);
  });

  test('obligatory link is required', async () => {
    const s = await dossierSetup(t);
    await t.db
      .updateTable('def_dossier_link')
      .set({ obligatory: true })
      .where('id', '=', s.links.lead.id)
      .execute();
    const response = await create(s, { [key(s.fields.name.item)]: 'A' });
    expect(response.json().errors).toEqual({ [key(s.links.leadItem)]: DOSSIER_MESSAGES.required });
    expect(
      (await create(s, { [key(s.fields.name.item)]: 'A', [key(s.links.leadItem)]: s.projectsDossiers[0] }))
        .statusCode,
    ).toBe(201);
  });

  test('duplicate values answer 409 unless ignore_existing', async () => {
    const s = await dossierSetup(t);
    const name = key(s.fields.name.item);
    const first = await createOk(s, { [name]: 'Jansen' });
    const again = await create(s, { [name]: 'Jansen' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      errors: { [name]: DOSSIER_MESSAGES.duplicate },
      existing: [{ id: first, summary: 'Jansen C-1' }],
      constraint_type: 'warning',
    });
    const second = (await create(s, { [name]: 'Jansen' }, { ignore_existing: true })).json().id as number;
    // Editing the accepted duplicate: an unchanged name is no new warning, a changed one is checked.
    const unchanged = await put(s.admin, `/api/contentdossier/${second}`, {
      values: { [name]: 'Jansen', [key(s.fields.email.item)]: 'j@example.com' },
    });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    await createOk(s, { [name]: 'Pietersen' });
    const renamed = await put(s.admin, `/api/contentdossier/${second}`, { values: { [name]: 'Pietersen' } });
    expect(renamed.statusCode).toBe(409);
  });

  test('role-hidden items are not answered and refused on write; link items need show on the child', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show', 'create', 'edit']);
    // notes only for another role; email hidden from the member's role.
    await setItemRoles(t.db, s.fields.notes.item.id, 'INCLUDE_SELECTED_ROLES', [s.role.id + 100000]);
    await setItemRoles(t.db, s.fields.email.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
    const name = key(s.fields.name.item);
    for (const hidden of [s.fields.notes.item, s.fields.email.item, s.links.leadItem]) {
      const response = await s.member.post('/api/contentdossier', {
        defDossier: s.client.id,
        values: { [name]: 'A', [key(hidden)]: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ [key(hidden)]: DOSSIER_MESSAGES.unknownItem });
    }
    const id = await createOk(s, {
      [name]: 'A',
      [key(s.fields.notes.item)]: 'secret',
      [key(s.fields.email.item)]: 'a@b.nl',
    });
    const detail = await s.member.get(`/api/contentdossier/${id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json() as DossierDetail;
    expect(body.content[name]).toBe('A');
    for (const hidden of [s.fields.notes.item, s.fields.email.item, s.links.leadItem, s.links.projectsItem]) {
      expect(body.content).not.toHaveProperty(key(hidden));
      expect(body.items.map((i) => i.id)).not.toContain(hidden.id);
    }
    expect(detail.body).not.toContain('secret');
    // With show on Project the link items appear.
    await s.grant(s.project, ['show']);
    const withLinks = (await s.member.get(`/api/contentdossier/${id}`)).json() as DossierDetail;
    expect(withLinks.content[key(s.links.leadItem)]).toEqual([]);
  });

  test('permissions: create, show and edit; other environments', async () => {
    const s = await dossierSetup(t);
    const name = key(s.fields.name.item);
    const body = { defDossier: s.client.id, values: { [name]: 'A' } };
    expectForbidden(await s.member.post('/api/contentdossier', body), 'member without create');
    expectNotFound(await s.outsider.post('/api/contentdossier', body), 'other environment');
    const id = await createOk(s, { [name]: 'A' });
    expectForbidden(await s.member.get(`/api/contentdossier/${id}`), 'member without show');
    expectNotFound(await s.outsider.get(`/api/contentdossier/${id}`), 'other environment');
    await s.grant(s.client, ['show']);
    expect((await s.member.get(`/api/contentdossier/${id}`)).statusCode).toBe(200);
    expectForbidden(await put(s.member, `/api/contentdossier/${id}`, { values: { [name]: 'B' } }), 'no edit');
    expectNotFound(
      await put(s.outsider, `/api/contentdossier/${id}`, { values: { [name]: 'B' } }),
      'outsider',
    );
    await s.grant(s.client, ['show', 'edit', 'create']);
    expect((await put(s.member, `/api/contentdossier/${id}`, { values: { [name]: 'B' } })).statusCode).toBe(
      200,
    );
    expect((await s.member.post('/api/contentdossier', body)).statusCode).toBe(201);
    expect((await s.admin.get('/api/contentdossier/99999999')).statusCode).toBe(404);
    expect((await s.admin.post('/api/contentdossier', { ...body, defDossier: 99999999 })).statusCode).toBe(
      404,
    );
    // signed out: 401 before anything about the entity is told
    expect((await t.client().post('/api/contentdossier', body)).statusCode).toBe(401);
    expect((await t.client().post('/api/contentdossier', { ...body, defDossier: 99999999 })).statusCode).toBe(
      401,
    );
  });

  test('the summary follows its items as configured at the time: list labels, and the first text field without items', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const first = await createOk(s, { [key(f.name.item)]: 'Jansen' });
    expect((await stored(first)).summary).toBe('Jansen C-1');
    // configuration changes between two creates reach the second (the summary items are cached per
    // configuration version)
    await buildDisplayItem(t.db, s.client, { dataFieldId: f.list.dataField.id, view: 'summary', rank: 3 });
    const second = await createOk(s, { [key(f.name.item)]: 'Bakker', [key(f.list.item)]: s.options.red.id });
    expect((await stored(second)).summary).toBe('Bakker C-2 Red');
    await t.db
      .deleteFrom('display_item')
      .where('def_dossier_id', '=', s.client.id)
      .where('view', '=', 'summary')
      .execute();
    // without summary items: the first text field every reader may see (summary-refresh.test.ts)
    const third = await createOk(s, { [key(f.name.item)]: 'Visser' });
    expect((await stored(third)).summary).toBe('Visser');
  });
});

describe('PUT /api/contentdossier/{id}', () => {
  test('updates the values of a position, recomputes calc and summary, logs the changes', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const id = await createOk(s, { [key(f.name.item)]: 'Jansen', [key(f.amount.item)]: 10 });
    const response = await put(s.admin, `/api/contentdossier/${id}?displayPosition=${s.main.id}`, {
      values: {
        [key(f.name.item)]: 'Bakker',
        [key(f.amount.item)]: 4,
        [key(s.links.projectsItem)]: [s.projectsDossiers[1]],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = await stored(id);
    const v = row.values as Record<string, unknown>;
    expect(v[String(f.calc.dataField.id)]).toBe(8);
    expect(v[String(f.auto.dataField.id)]).toBe(1);
    expect(row.summary).toBe('Bakker C-1');
    const log = await t.db
      .selectFrom('dossier_log')
      .selectAll()
      .where('content_dossier_id', '=', id)
      .where('type', '=', 'change')
      .executeTakeFirstOrThrow();
    expect(log.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ defDisplayItemName: 'name', oldValue: 'Jansen', newValue: 'Bakker' }),
        expect.objectContaining({ defDisplayItemName: 'amount', oldValue: 10, newValue: 4 }),
        {
          displayItemId: s.links.projectsItem.id,
          defDisplayItemName: 'projects',
          oldValue: [],
          newValue: [s.projectsDossiers[1]],
        },
      ]),
    );
    const detail = (await s.admin.get(`/api/contentdossier/${id}`)).json() as DossierDetail;
    expect(detail.content[key(s.links.projectsItem)]).toMatchObject([{ id: s.projectsDossiers[1] }]);

    // An item of another position is refused; the required name cannot be emptied.
    const outside = await put(s.admin, `/api/contentdossier/${id}?displayPosition=${s.tab.id}`, {
      values: { [key(f.name.item)]: 'X' },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors).toEqual({ [key(f.name.item)]: DOSSIER_MESSAGES.unknownItem });
    const emptied = await put(s.admin, `/api/contentdossier/${id}`, { values: { [key(f.name.item)]: '' } });
    expect(emptied.json().errors).toEqual({ [key(f.name.item)]: DOSSIER_MESSAGES.required });
    // Its own value is no duplicate.
    expect(
      (await put(s.admin, `/api/contentdossier/${id}`, { values: { [key(f.name.item)]: 'Bakker' } }))
        .statusCode,
    ).toBe(200);
  });

  test('archived dossiers cannot be edited', async () => {
    const s = await dossierSetup(t);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    await t.db.updateTable('content_dossier').set({ archived: true }).where('id', '=', id).execute();
    const response = await put(s.admin, `/api/contentdossier/${id}`, { values: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { dossier: DOSSIER_MESSAGES.archived } });
  });

  test('a backlink item stores the forward row with parent and child swapped', async () => {
    const s = await dossierSetup(t);
    // Backlink of 'lead' on Project, placed on a Project position.
    const back = await t.db
      .insertInto('def_dossier_link')
      .values({
        environment_id: s.environment.id,
        def_dossier_id: s.project.id,
        child_def_dossier_id: s.client.id,
        back_link_id: s.links.lead.id,
        name: 'clients',
        type_of_link: 'select',
        settings: {},
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('def_dossier_link')
      .set({ back_link_id: back.id })
      .where('id', '=', s.links.lead.id)
      .execute();
    const position = await buildDisplayPosition(t.db, s.project, { type: 'main_content' });
    const backItem = await buildDisplayItem(t.db, s.project, { linkId: back.id, positionId: position.id });
    const title = await addField(t, s.project, position.id, 'text', 'title');
    const clientId = await createOk(s, { [key(s.fields.name.item)]: 'Jansen' });
    const response = await s.admin.post('/api/contentdossier', {
      defDossier: s.project.id,
      values: { [key(title.item)]: 'Gamma', [key(backItem)]: [clientId] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const projectId = response.json().id;
    const rows = await t.db
      .selectFrom('content_link')
      .selectAll()
      .where('child_id', '=', projectId)
      .execute();
    expect(rows).toMatchObject([{ link_id: s.links.lead.id }]);
    expect(Number(rows[0].parent_id)).toBe(clientId);
    const clientDetail = (await s.admin.get(`/api/contentdossier/${clientId}`)).json() as DossierDetail;
    expect(clientDetail.content[key(s.links.leadItem)]).toMatchObject([{ id: projectId }]);
    const projectDetail = (await s.admin.get(`/api/contentdossier/${projectId}`)).json() as DossierDetail;
    expect(projectDetail.content[key(backItem)]).toMatchObject([{ id: clientId, summary: 'Jansen C-1' }]);
  });
});

describe('embedded create and system fields', () => {
  test('embedded + linkId link the new dossier to the parent, forward or through the backlink', async () => {
    const s = await dossierSetup(t);
    const f = s.fields;
    const sysDate = await addField(t, s.client, s.main.id, 'systemdate', 'created');
    const sysUser = await addField(t, s.client, s.main.id, 'systemuser', 'creator');
    const parent = await createOk(s, { [key(f.name.item)]: 'Parent' });
    const detail = (await s.admin.get(`/api/contentdossier/${parent}`)).json() as DossierDetail;
    expect(detail.content[key(sysUser.item)]).toBe(detail.dossier.created_by?.id);
    expect(detail.content[key(sysDate.item)]).toBe(detail.dossier.created_at);

    // A Project created in the 'projects' embedded list of the client.
    const title = await addField(
      t,
      s.project,
      (await buildDisplayPosition(t.db, s.project)).id,
      'text',
      'title',
    );
    const post = (extra: Record<string, unknown>) =>
      s.admin.post('/api/contentdossier', {
        defDossier: s.project.id,
        values: { [key(title.item)]: 'P' },
        ...extra,
      });
    const created = await post({ embedded: parent, linkId: s.links.projects.id });
    expect(created.statusCode, created.body).toBe(201);
    const after = (await s.admin.get(`/api/contentdossier/${parent}`)).json() as DossierDetail;
    expect(after.content[key(s.links.projectsItem)]).toMatchObject([{ id: created.json().id }]);

    expect((await post({ embedded: parent })).json()).toEqual({ errors: { linkId: EMBEDDED_MESSAGES.both } });
    const project = s.projectsDossiers[0];
    expect((await post({ embedded: project, linkId: s.links.projects.id })).json()).toEqual({
      errors: { embedded: EMBEDDED_MESSAGES.parent },
    });
    // The single 'lead' link takes one dossier only.
    expect((await post({ embedded: parent, linkId: s.links.lead.id })).statusCode).toBe(201);
    expect((await post({ embedded: parent, linkId: s.links.lead.id })).json()).toEqual({
      errors: { linkId: DOSSIER_MESSAGES.singleLink },
    });
  });
});

describe('visibleItems', () => {
  test('include and exclude roles, admins see all, link items need show on the child', async () => {
    const s = await dossierSetup(t);
    const access = async (userId: number) => {
      const user = await t.db
        .selectFrom('app_user')
        .selectAll()
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return openEnvironment(t.db, user, s.environment.id);
    };
    await setItemRoles(t.db, s.fields.name.item.id, 'INCLUDE_SELECTED_ROLES', [s.role.id]);
    await setItemRoles(t.db, s.fields.notes.item.id, 'INCLUDE_SELECTED_ROLES', []);
    await setItemRoles(t.db, s.fields.email.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id]);
    await setItemRoles(t.db, s.fields.url.item.id, 'EXCLUDE_SELECTED_ROLES', [s.role.id + 1000000]);
    const member = await access(s.memberId);
    // access is read per request, as the routes do: it carries the configuration version
    const ids = async (views: string[]) =>
      (await visibleItems(t.db, await access(s.memberId), s.client.id, views)).map((v) => v.item.id);
    const seen = await ids(['show/edit']);
    expect(seen).toContain(s.fields.name.item.id);
    expect(seen).toContain(s.fields.url.item.id);
    expect(seen).not.toContain(s.fields.notes.item.id);
    expect(seen).not.toContain(s.fields.email.item.id);
    expect(seen).not.toContain(s.links.projectsItem.id);
    expect(await ids(['summary'])).toHaveLength(2);
    expect(await ids([])).toEqual([]);
    await s.grant(s.project, ['show']);
    expect(await ids(['show/edit'])).toContain(s.links.projectsItem.id);
    const [first] = await visibleItems(t.db, member, s.client.id, ['show/edit']);
    expect(first.field?.type).toBe('text');
    expect(first.dataField?.name).toBe('name');
    const members = await t.db
      .selectFrom('environment_user')
      .selectAll()
      .where('environment_id', '=', s.environment.id)
      .execute();
    const adminId = members.find((m) => m.credentials.includes('environment-admin'))?.user_id ?? 0;
    const all = (await visibleItems(t.db, await access(adminId), s.client.id, ['show/edit'])).map(
      (v) => v.item.id,
    );
    expect(all).toEqual(
      expect.arrayContaining([s.fields.notes.item.id, s.fields.email.item.id, s.links.leadItem.id]),
    );
  });
});

describe('list options restricted by role', () => {
  test('dossier reads carry only the options the user may see, and follow configuration changes', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show', 'create', 'edit']);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'Options' });
    const optionIds = async (client: typeof s.member, url: string) => {
      const response = await client.get(url);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      const items = (body.items ?? body.results.items) as DossierDetail['items'];
      const list = items.find((i) => i.id === s.fields.list.item.id);
      return list?.def_dossier_def_field?.def_field.def_field_lists?.map((o) => o.id);
    };
    const detail = `/api/contentdossier/${id}?displayPosition=${s.main.id}`;
    expect(await optionIds(s.member, detail)).toEqual([s.options.red.id, s.options.blue.id]);
    await t.db
      .updateTable('def_field_list')
      .set({ settings: { roles: [s.role.id] } })
      .where('id', '=', s.options.red.id)
      .execute();
    expect(await optionIds(s.member, detail)).toEqual([s.options.blue.id]);
    expect(await optionIds(s.admin, detail)).toEqual([s.options.red.id, s.options.blue.id]);
    // the list call presents its items the same way
    const listItem = await buildDisplayItem(t.db, s.client, {
      dataFieldId: s.fields.list.dataField.id,
      view: 'list',
    });
    const list = await s.member.get(`/api/contentdossier?defDossier=${s.client.id}`);
    const listed = (list.json().results.items as DossierDetail['items']).find((i) => i.id === listItem.id);
    expect(listed?.def_dossier_def_field?.def_field.def_field_lists?.map((o) => o.id)).toEqual([
      s.options.blue.id,
    ]);
  });

  test('a member cannot choose a restricted option but keeps one already selected', async () => {
    const s = await dossierSetup(t);
    await s.grant(s.client, ['show', 'create', 'edit']);
    await t.db
      .updateTable('def_field_list')
      .set({ settings: { roles: [s.role.id] } })
      .where('id', '=', s.options.red.id)
      .execute();
    const name = key(s.fields.name.item);
    const colour = key(s.fields.list.item);
    const refused = await s.member.post('/api/contentdossier', {
      defDossier: s.client.id,
      values: { [name]: 'A', [colour]: s.options.red.id },
    });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors)).toEqual([colour]);
    const id = await createOk(s, { [name]: 'B', [colour]: s.options.red.id });
    const kept = await put(s.member, `/api/contentdossier/${id}`, {
      values: { [name]: 'C', [colour]: s.options.red.id },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const oversized = await put(s.member, `/api/contentdossier/${id}`, {
      values: {
        [key(s.fields.notes.item)]: `<p>${'x'.repeat(200_000)}</p>`,
        [key(s.fields.amount.item)]: 1e20,
      },
    });
    expect(oversized.statusCode).toBe(400);
    expect(Object.keys(oversized.json().errors).sort()).toEqual(
      [key(s.fields.notes.item), key(s.fields.amount.item)].sort(),
    );
  });
});

describe('the layout calls for members who may show the entity', () => {
  test('entity, positions and items reduced to what they may see; refused without show', async () => {
    const s = await dossierSetup(t);
    const hidden = await buildDisplayPosition(t.db, s.client, { name: 'Hidden', type: 'hide', rank: 9 });
    await t.db
      .updateTable('def_dossier')
      .set({
        settings: { detail_layout: 'vertical', address_lookup_settings: { apikey: 'secret-key' } },
        visibility_roles: [s.role.id],
      })
      .where('id', '=', s.client.id)
      .execute();
    await setItemRoles(t.db, s.fields.extra.item.id, 'INCLUDE_SELECTED_ROLES', [s.role.id + 1000]);
    await t.db
      .updateTable('def_field_list')
      .set({ settings: { roles: [s.role.id] } })
      .where('id', '=', s.options.red.id)
      .execute();

    // without show: refused like every other entity call
    expectForbidden(await s.member.get(`/api/defdossier/${s.client.id}`), 'entity');
    expectForbidden(await s.member.get(`/api/displayitem?defDossier=${s.client.id}`), 'items');
    expectForbidden(await s.member.get(`/api/displayposition?defDossier=${s.client.id}`), 'positions');
    expectNotFound(await s.outsider.get(`/api/displayitem?defDossier=${s.client.id}`), 'outsider items');

    await s.grant(s.client, ['show']);
    const entity = (await s.member.get(`/api/defdossier/${s.client.id}`)).json();
    expect(entity.settings).toEqual({ detail_layout: 'vertical' });
    expect(JSON.stringify(entity)).not.toContain('secret-key');
    const positions = (await s.member.get(`/api/displayposition?defDossier=${s.client.id}`)).json().results;
    expect(positions.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([s.main.id, s.tab.id]));
    expect(positions.map((p: { id: number }) => p.id)).not.toContain(hidden.id);
    const items = (await s.member.get(`/api/displayitem?defDossier=${s.client.id}`)).json()
      .results as DossierDetail['items'];
    const ids = items.map((i) => i.id);
    expect(ids).toContain(s.fields.name.item.id);
    expect(ids).not.toContain(s.fields.extra.item.id);
    const list = items.find((i) => i.id === s.fields.list.item.id);
    expect(list?.def_dossier_def_field?.def_field.def_field_lists?.map((o) => o.id)).toEqual([
      s.options.blue.id,
    ]);
    const summary = (await s.member.get(`/api/displayitem?defDossier=${s.client.id}&view=summary`)).json()
      .results;
    expect(summary).toHaveLength(2);
    const onTab = (
      await s.member.get(`/api/displayitem?defDossier=${s.client.id}&displayPosition=${s.tab.id}`)
    ).json().results;
    expect(onTab).toEqual([]);
    // admins still get the whole configuration
    expect(
      (await s.admin.get(`/api/defdossier/${s.client.id}`)).json().settings.address_lookup_settings,
    ).toEqual({
      apikey: 'secret-key',
    });
  });
});
