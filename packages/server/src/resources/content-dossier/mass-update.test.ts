import { DOSSIER_MESSAGES, MASS_UPDATE_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectForbidden, expectNotFound, put } from '../../../test/entity-test-setup';
import { failDossierWrites } from '../../../test/fail-writes';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, type DossierSetup, dossierSetup, key } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const URL = '/api/contentdossier/massupdate';

async function createOk(s: DossierSetup, values: Record<string, unknown>) {
  const response = await s.admin.post('/api/contentdossier', { defDossier: s.client.id, values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const rows = async (ids: number[]) =>
  t.db.selectFrom('content_dossier').selectAll().where('id', 'in', ids).orderBy('id').execute();
const changeLogs = async (ids: number[]) =>
  t.db
    .selectFrom('dossier_log')
    .selectAll()
    .where('content_dossier_id', 'in', ids)
    .where('type', '=', 'change')
    .orderBy('content_dossier_id')
    .execute();

async function three(s: DossierSetup) {
  return [
    await createOk(s, { [key(s.fields.name.item)]: 'One', [key(s.fields.extra.item)]: 'kept' }),
    await createOk(s, { [key(s.fields.name.item)]: 'Two' }),
    await createOk(s, {
      [key(s.fields.name.item)]: 'Three',
      [key(s.links.projectsItem)]: [s.projectsDossiers[0]],
    }),
  ];
}

describe('mass update', () => {
  test('needs massupdate and edit on the entity; another environment and unknown ids are refused', async () => {
    const s = await dossierSetup(t);
    const ids = await three(s);
    const body = {
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(s.fields.amount.item)]: 5 },
    };
    await s.grant(s.client, ['show', 'edit']);
    expectForbidden(await put(s.member, URL, body), 'member without massupdate');
    await s.grant(s.client, ['show', 'massupdate']);
    expectForbidden(await put(s.member, URL, body), 'member without edit');
    expect((await put(s.outsider, URL, body)).statusCode).toBe(404);
    // an id of another entity (a project) is unknown here
    expectNotFound(
      await put(s.admin, URL, { ...body, dossier_ids: [...ids, s.projectsDossiers[0]] }),
      'dossier of another entity',
    );
    expect(
      (await rows(ids)).every(
        (r) => (r.values as Record<string, unknown>)[key(s.fields.amount.dataField)] === undefined,
      ),
    ).toBe(true);
    await s.grant(s.client, ['show', 'edit', 'massupdate']);
    const ok = await put(s.member, URL, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ updated: 3 });
    for (const row of await rows(ids)) {
      const values = row.values as Record<string, unknown>;
      expect(values[key(s.fields.amount.dataField)]).toBe(5);
      // the calc field is recalculated
      expect(values[key(s.fields.calc.dataField)]).toBe(10);
    }
    const logs = await changeLogs(ids);
    expect(logs.map((l) => Number(l.content_dossier_id))).toEqual(ids);
    expect(logs[0]?.changes).toEqual([
      expect.objectContaining({ displayItemId: s.fields.amount.item.id, oldValue: null, newValue: 5 }),
    ]);
  });

  test('without overwrite only empty values are filled and multiple links are added to; with overwrite replaced', async () => {
    const s = await dossierSetup(t);
    const ids = await three(s);
    const [p1, p2] = s.projectsDossiers;
    const fill = await put(s.admin, URL, {
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: {
        [key(s.fields.extra.item)]: 'filled',
        [key(s.links.projectsItem)]: [p2],
        [key(s.fields.notes.item)]: '',
      },
    });
    expect(fill.statusCode, fill.body).toBe(200);
    const extra = async () =>
      (await rows(ids)).map((r) => (r.values as Record<string, unknown>)[key(s.fields.extra.dataField)]);
    expect(await extra()).toEqual(['kept', 'filled', 'filled']);
    const links = await t.db
      .selectFrom('content_link')
      .select(['parent_id', 'child_id'])
      .where('link_id', '=', s.links.projects.id)
      .where('parent_id', 'in', ids)
      .orderBy('parent_id')
      .orderBy('rank')
      .execute();
    expect(links.map((l) => [Number(l.parent_id), Number(l.child_id)])).toEqual([
      [ids[0], p2],
      [ids[1], p2],
      [ids[2], p1],
      [ids[2], p2],
    ]);
    const over = await put(s.admin, URL, {
      overwrite: true,
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(s.fields.extra.item)]: 'over' },
    });
    expect(over.statusCode, over.body).toBe(200);
    expect(await extra()).toEqual(['over', 'over', 'over']);
  });

  test('all or nothing: a dossier the update is refused for changes nothing and is reported', async () => {
    const s = await dossierSetup(t);
    const ids = await three(s);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    expect((await s.admin.post(`/api/contentdossier/${ids[2]}/archive`)).statusCode).toBe(200);
    const before = await rows(ids);
    const refused = await put(s.admin, URL, {
      overwrite: true,
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(s.fields.extra.item)]: 'never' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      errors: { dossier_ids: MASS_UPDATE_MESSAGES.refused },
      report: [{ id: ids[2], summary: expect.any(String), errors: { dossier: DOSSIER_MESSAGES.archived } }],
    });
    expect(await rows(ids)).toEqual(before);
    expect(await changeLogs(ids)).toEqual([]);
  });

  test('a value is checked as an edit checks it; a unique value twice is refused; hidden items cannot be written', async () => {
    const s = await dossierSetup(t);
    const ids = await three(s);
    const bad = await put(s.admin, URL, {
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(s.fields.email.item)]: 'not an address' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual([key(s.fields.email.item)]);
    const twice = await put(s.admin, URL, {
      overwrite: true,
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(s.fields.name.item)]: 'Same' },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().report).toHaveLength(3);
    expect(twice.json().report[0].errors).toEqual({ [key(s.fields.name.item)]: DOSSIER_MESSAGES.duplicate });
    const nothing = await put(s.admin, URL, { defDossier: s.client.id, dossier_ids: ids, update_values: {} });
    expect(nothing.json()).toEqual({ errors: { update_values: MASS_UPDATE_MESSAGES.nothing } });
    // an item hidden from the member's roles is unknown to them
    const secret = await addField(t, s.client, s.main.id, 'text', 'secret');
    const patched = await s.admin.patch(`/api/defdossierdeffield/${secret.dataField.id}`, {
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      roles: [s.role.id],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await s.grant(s.client, ['show', 'edit', 'massupdate']);
    const hidden = await put(s.member, URL, {
      defDossier: s.client.id,
      dossier_ids: ids,
      update_values: { [key(secret.item)]: 'leak' },
    });
    expect(hidden.statusCode).toBe(400);
    expect((await changeLogs(ids)).length).toBe(0);
  });

  test('a failure while writing the last dossier leaves every dossier and the log as they were', async () => {
    const s = await dossierSetup(t);
    const ids = await three(s);
    const before = await rows(ids);
    const restore = await failDossierWrites(t.db, { id: ids[2] });
    try {
      const failed = await put(s.admin, URL, {
        overwrite: true,
        defDossier: s.client.id,
        dossier_ids: ids,
        update_values: { [key(s.fields.extra.item)]: 'half' },
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await rows(ids)).toEqual(before);
    expect(await changeLogs(ids)).toEqual([]);
  });
});
