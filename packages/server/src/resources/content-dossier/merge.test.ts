import { FORBIDDEN_MESSAGE, MERGE_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildLink } from '../../../test/entity-factories';
import { buildDefDossier } from '../../../test/factories';
import { failDossierWrites } from '../../../test/fail-writes';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, type DossierSetup, dossierSetup, insertDossier, key } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const URL = '/api/contentdossier/merge';

async function createOk(s: DossierSetup, values: Record<string, unknown>) {
  const response = await s.admin.post('/api/contentdossier', { defDossier: s.client.id, values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const row = (id: number) =>
  t.db.selectFrom('content_dossier').selectAll().where('id', '=', id).executeTakeFirst();
const children = async (parent: number, linkId: number) =>
  (
    await t.db
      .selectFrom('content_link')
      .select('child_id')
      .where('parent_id', '=', parent)
      .where('link_id', '=', linkId)
      .orderBy('rank')
      .execute()
  ).map((r) => Number(r.child_id));
const counts = async (environmentId: number) => ({
  dossiers: (
    await t.db
      .selectFrom('content_dossier')
      .select('id')
      .where('environment_id', '=', environmentId)
      .execute()
  ).length,
  links: (
    await t.db.selectFrom('content_link').select('id').where('environment_id', '=', environmentId).execute()
  ).length,
  logs: (
    await t.db.selectFrom('dossier_log').select('id').where('environment_id', '=', environmentId).execute()
  ).length,
});

/** Two clients with values and links: Left (amount 1, projects p1, lead p1), Right (amount 2, extra, projects p2, lead p2). */
async function pair(s: DossierSetup) {
  const [p1, p2] = s.projectsDossiers;
  const left = await createOk(s, {
    [key(s.fields.name.item)]: 'Left',
    [key(s.fields.amount.item)]: 1,
    [key(s.links.projectsItem)]: [p1],
    [key(s.links.leadItem)]: [p1],
  });
  const right = await createOk(s, {
    [key(s.fields.name.item)]: 'Right',
    [key(s.fields.amount.item)]: 2,
    [key(s.fields.extra.item)]: 'from right',
    [key(s.links.projectsItem)]: [p2],
    [key(s.links.leadItem)]: [p2],
  });
  return { left, right, p1, p2 };
}

describe('merge', () => {
  test('needs merge; archive and delete need their permission; another environment is unknown', async () => {
    const s = await dossierSetup(t);
    const { left, right } = await pair(s);
    const body = (action: string) => ({
      environment: s.environment.id,
      dossiers: { action, ids: [left, right] },
      mergeDossier: [],
    });
    await s.grant(s.client, ['show']);
    const refused = await s.member.post(URL, body('keep'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: FORBIDDEN_MESSAGE });
    await s.grant(s.client, ['show', 'merge']);
    expect((await s.member.post(URL, body('archive'))).statusCode).toBe(403);
    expect((await s.member.post(URL, body('delete'))).statusCode).toBe(403);
    expect(
      (await s.outsider.post(URL, { ...body('keep'), environment: s.otherEnvironment.id })).statusCode,
    ).toBe(404);
    expect((await s.outsider.post(URL, body('keep'))).statusCode).toBe(404);
    // the same dossier twice, or dossiers of two entities
    expect(
      (await s.member.post(URL, { ...body('keep'), dossiers: { action: 'keep', ids: [left, left] } })).json(),
    ).toEqual({
      errors: { dossiers: MERGE_MESSAGES.two },
    });
    expect(
      (
        await s.member.post(URL, {
          ...body('keep'),
          dossiers: { action: 'keep', ids: [left, s.projectsDossiers[0]] },
        })
      ).statusCode,
    ).toBe(400);
    const ok = await s.member.post(URL, body('keep'));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await row(left)).toBeDefined();
  });

  test('values from the chosen side, calc recalculated, default links of both; archive the old two, each logged', async () => {
    const s = await dossierSetup(t);
    const { left, right, p1, p2 } = await pair(s);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    const merged = await s.admin.post(URL, {
      environment: s.environment.id,
      dossiers: { action: 'archive', ids: [left, right] },
      mergeDossier: [
        { id: s.fields.name.item.id, use: 'left' },
        { id: s.fields.amount.item.id, use: 'right' },
        { link_id: s.links.projectsItem.id, use_from: 'default' },
      ],
    });
    expect(merged.statusCode, merged.body).toBe(201);
    const id = merged.json().id as number;
    const values = (await row(id))?.values as Record<string, unknown>;
    expect(values[key(s.fields.name.dataField)]).toBe('Left');
    expect(values[key(s.fields.amount.dataField)]).toBe(2);
    expect(values[key(s.fields.calc.dataField)]).toBe(4);
    // not chosen: the first side that has a value
    expect(values[key(s.fields.extra.dataField)]).toBe('from right');
    expect(await children(id, s.links.projects.id)).toEqual([p1, p2]);
    // lead is a single link: its default keeps the first side's
    expect(await children(id, s.links.lead.id)).toEqual([p1]);
    expect((await row(left))?.archived).toBe(true);
    expect((await row(right))?.archived).toBe(true);
    // the old ones keep their own links
    expect(await children(left, s.links.projects.id)).toEqual([p1]);
    const logs = await t.db
      .selectFrom('dossier_log')
      .select(['content_dossier_id', 'type'])
      .where('content_dossier_id', 'in', [id, left, right])
      .where('type', '!=', 'create')
      .orderBy('id')
      .execute();
    expect(logs.map((l) => [Number(l.content_dossier_id), l.type])).toEqual([
      [left, 'change'],
      [left, 'archive'],
      [right, 'change'],
      [right, 'archive'],
    ]);
  });

  test('each link choice: left, right and selected links; delete the old two; backlinks move too', async () => {
    const s = await dossierSetup(t);
    const { left, right, p1, p2 } = await pair(s);
    const p3 = await insertDossier(t, s.project, 'Gamma');
    await t.db
      .insertInto('content_link')
      .values({
        environment_id: s.environment.id,
        link_id: s.links.projects.id,
        parent_id: right,
        child_id: p3,
        rank: 1,
      })
      .execute();
    // a note entity whose link points at clients: the merged dossier takes over the notes' links
    const note = await buildDefDossier(t.db, s.environment.id, { name: 'Note' });
    const about = await buildLink(t.db, note, s.client, { name: 'about' });
    const n1 = await insertDossier(t, note, 'N1');
    await t.db
      .insertInto('content_link')
      .values({ environment_id: s.environment.id, link_id: about.id, parent_id: n1, child_id: left, rank: 0 })
      .execute();
    const merge = (action: string, ids: number[], links: unknown[]) =>
      s.admin.post(URL, { environment: s.environment.id, dossiers: { action, ids }, mergeDossier: links });

    const leftOnly = await merge(
      'keep',
      [left, right],
      [
        { link_id: s.links.projectsItem.id, use_from: 'left' },
        { link_id: s.links.leadItem.id, use_from: 'right' },
      ],
    );
    expect(leftOnly.statusCode, leftOnly.body).toBe(201);
    expect(await children(leftOnly.json().id, s.links.projects.id)).toEqual([p1]);
    expect(await children(leftOnly.json().id, s.links.lead.id)).toEqual([p2]);

    const refused = await merge(
      'keep',
      [left, right],
      [{ link_id: s.links.projectsItem.id, use_from: 'selectedlinks', ids: [p1, n1] }],
    );
    expect(refused.json()).toEqual({ errors: { [key(s.links.projectsItem)]: MERGE_MESSAGES.notLinked } });

    const selected = await merge(
      'delete',
      [left, right],
      [{ link_id: s.links.projectsItem.id, use_from: 'selectedlinks', ids: [p3, p1] }],
    );
    expect(selected.statusCode, selected.body).toBe(201);
    const id = selected.json().id as number;
    expect(await children(id, s.links.projects.id)).toEqual([p3, p1]);
    // the note links each merged dossier (the first merge kept the old ones), and no longer the deleted
    expect(await children(n1, about.id)).toEqual([leftOnly.json().id, id]);
    expect(await row(left)).toBeUndefined();
    expect(await row(right)).toBeUndefined();
    // the linked projects live on with the merged dossier
    expect(await row(p2)).toBeDefined();
  });

  test('an item hidden from the user cannot be chosen; its value is kept from the first side that has one', async () => {
    const s = await dossierSetup(t);
    const secret = await addField(t, s.client, s.main.id, 'text', 'secret');
    const patched = await s.admin.patch(`/api/defdossierdeffield/${secret.dataField.id}`, {
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      roles: [s.role.id],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const left = await createOk(s, { [key(s.fields.name.item)]: 'L' });
    const right = await createOk(s, { [key(s.fields.name.item)]: 'R', [key(secret.item)]: 'hidden value' });
    await s.grant(s.client, ['show', 'merge']);
    const body = (mergeDossier: unknown[]) => ({
      environment: s.environment.id,
      dossiers: { action: 'keep', ids: [left, right] },
      mergeDossier,
    });
    const refused = await s.member.post(URL, body([{ id: secret.item.id, use: 'left' }]));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain('hidden value');
    const ok = await s.member.post(URL, body([]));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.body).not.toContain('hidden value');
    const values = (await row(ok.json().id))?.values as Record<string, unknown>;
    expect(values[key(secret.dataField)]).toBe('hidden value');
  });

  test('a failure while deleting the second old dossier leaves nothing half done', async () => {
    const s = await dossierSetup(t);
    const { left, right } = await pair(s);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    const before = await counts(s.environment.id);
    const restore = await failDossierWrites(t.db, { id: right });
    try {
      const failed = await s.admin.post(URL, {
        environment: s.environment.id,
        dossiers: { action: 'archive', ids: [left, right] },
        mergeDossier: [],
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await counts(s.environment.id)).toEqual(before);
    expect((await row(left))?.archived).toBe(false);
  });
});
