import type { AddressInfo } from 'node:net';
import {
  DISPLAY_ITEM_EVENTS,
  type DisplayItemDeleteEvent,
  type DisplayItemUpdateEvent,
  DOSSIER_EVENTS,
  type DossierEvent,
} from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { put } from '../../test/entity-test-setup';
import { joinedSocket, type TestSocket } from '../../test/sockets';
import { createTestApp, type TestApp } from '../../test/test-app';
import { type DossierSetup, dossierSetup, key } from '../resources/content-dossier/fixture';
import { CONSTRAINT_MESSAGE } from '../resources/content-dossier/service';
import { attachRealtime } from './socket';

// Issue 19, point 6: every dossier write is announced to the environment's room once its transaction
// has committed, with ids only; a rolled-back write is never announced.

let t: TestApp;
let baseUrl: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({}, { beforeReady: async (app) => void (await attachRealtime(app)) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t.close());

async function listen(s: DossierSetup) {
  const member = await joinedSocket(baseUrl, s.member, s.environment.id);
  const outsider = await joinedSocket(baseUrl, s.outsider, s.otherEnvironment.id);
  open.push(member, outsider);
  return { member, outsider };
}

async function createOk(s: DossierSetup, values: Record<string, unknown>, extra: object = {}) {
  const response = await s.admin.post('/api/contentdossier', { defDossier: s.client.id, values, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const adminId = async (s: DossierSetup) =>
  (
    await t.db
      .selectFrom('environment_user')
      .select('user_id')
      .where('environment_id', '=', s.environment.id)
      .where(sql<boolean>`'environment-admin' = any(credentials)`)
      .executeTakeFirstOrThrow()
  ).user_id;

describe('dossier events', () => {
  test('create, change, archive, dearchive and delete reach the room with ids only, not another environment', async () => {
    const s = await dossierSetup(t);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    const sender = await adminId(s);
    const { member, outsider } = await listen(s);

    const id = await createOk(s, { [key(s.fields.name.item)]: 'Secret name' });
    const created = await member.next<DossierEvent>(DOSSIER_EVENTS.created);
    expect(created).toEqual({ ids: [id], defDossier: s.client.id, sender });
    // ids only: no value of the dossier travels with it
    expect(JSON.stringify(member.heard)).not.toContain('Secret name');

    const changed = await put(s.admin, `/api/contentdossier/${id}`, {
      values: { [key(s.fields.notes.item)]: 'more' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await member.next(DOSSIER_EVENTS.changed)).toEqual({ ids: [id], defDossier: s.client.id, sender });

    expect((await s.admin.post(`/api/contentdossier/${id}/archive`)).statusCode).toBe(200);
    expect(await member.next(DOSSIER_EVENTS.archived)).toEqual({
      ids: [id],
      defDossier: s.client.id,
      sender,
      archived: true,
    });
    expect((await s.admin.post(`/api/contentdossier/${id}/dearchive`)).statusCode).toBe(200);
    expect(await member.next<DossierEvent>(DOSSIER_EVENTS.archived)).toMatchObject({ archived: false });

    expect((await s.admin.delete(`/api/contentdossier/${id}`)).statusCode).toBe(200);
    expect(await member.next(DOSSIER_EVENTS.deleted)).toEqual({ ids: [id], defDossier: s.client.id, sender });
    expect(await member.next<DisplayItemDeleteEvent>(DISPLAY_ITEM_EVENTS.delete)).toEqual({
      defDossierId: s.client.id,
      ids: [id],
      sender,
      room: `environment:${s.environment.id}`,
    });

    // the other environment's room heard none of it
    expect(outsider.heard).toEqual([]);
  });

  test('a rolled-back write is not announced; the next committed one is', async () => {
    const s = await dossierSetup(t);
    const [p1] = s.projectsDossiers;
    await t.db
      .updateTable('def_dossier_link')
      .set({ cascade_rule: 'constraint' })
      .where('id', '=', s.links.projects.id)
      .execute();
    const id = await createOk(s, { [key(s.fields.name.item)]: 'Linked', [key(s.links.projectsItem)]: [p1] });
    const { member } = await listen(s);

    const refused = await s.admin.delete(`/api/contentdossier/${id}`);
    expect(refused.json()).toEqual({ errors: { dossier: CONSTRAINT_MESSAGE } });
    const other = await createOk(s, { [key(s.fields.name.item)]: 'After' });
    await member.next(DOSSIER_EVENTS.created);
    // in the order they were sent: nothing came before the create that committed
    expect(member.heard.map((h) => h.event)).toEqual([DOSSIER_EVENTS.created]);
    expect((member.heard[0].payload as DossierEvent).ids).toEqual([other]);
  });

  test('a delete cascading to linked dossiers announces each entity', async () => {
    const s = await dossierSetup(t);
    const [p1] = s.projectsDossiers;
    await t.db
      .updateTable('def_dossier_link')
      .set({ cascade_rule: 'delete' })
      .where('id', '=', s.links.projects.id)
      .execute();
    const id = await createOk(s, { [key(s.fields.name.item)]: 'Parent', [key(s.links.projectsItem)]: [p1] });
    const { member } = await listen(s);
    expect((await s.admin.delete(`/api/contentdossier/${id}`)).statusCode).toBe(200);
    const first = await member.next<DossierEvent>(DOSSIER_EVENTS.deleted);
    const second = await member.next<DossierEvent>(DOSSIER_EVENTS.deleted);
    expect(
      [first, second].map((e) => [e.defDossier, e.ids]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual(
      [
        [s.client.id, [id]],
        [s.project.id, [p1]],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
  });

  test('a dossier created in an embedded list: created with its parent and link, and the display item update', async () => {
    const s = await dossierSetup(t);
    const parent = await createOk(s, { [key(s.fields.name.item)]: 'Parent' });
    const { member } = await listen(s);
    const response = await s.admin.post('/api/contentdossier', {
      defDossier: s.project.id,
      values: {},
      embedded: parent,
      linkId: s.links.projects.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as number;
    const sender = await adminId(s);
    expect(await member.next(DOSSIER_EVENTS.created)).toEqual({
      ids: [id],
      defDossier: s.project.id,
      sender,
      links: [{ linkId: s.links.projects.id, parentId: parent }],
    });
    expect(await member.next<DisplayItemUpdateEvent>(DISPLAY_ITEM_EVENTS.update)).toEqual({
      dossierId: id,
      sender,
      parentId: parent,
      linkId: s.links.projects.id,
      displayItems: [s.links.projectsItem.id],
    });
  });

  test('a change of link fields asks the embedded lists of that link to read again (displayItem:fetch)', async () => {
    const s = await dossierSetup(t);
    const [p1] = s.projectsDossiers;
    const id = await createOk(s, { [key(s.fields.name.item)]: 'Linking' });
    const { member } = await listen(s);
    const response = await put(s.admin, `/api/contentdossier/${id}`, {
      values: { [key(s.links.projectsItem)]: [p1] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await member.next(DISPLAY_ITEM_EVENTS.fetch)).toEqual({
      dossierId: id,
      linkId: s.links.projects.id,
      sender: await adminId(s),
    });
  });

  test('bulk writes: mass update, bulk archive, series and merge', async () => {
    const s = await dossierSetup(t);
    await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
    const a = await createOk(s, { [key(s.fields.name.item)]: 'A' });
    const b = await createOk(s, { [key(s.fields.name.item)]: 'B' });
    const { member } = await listen(s);

    const mass = await put(s.admin, '/api/contentdossier/massupdate', {
      defDossier: s.client.id,
      dossier_ids: [a, b],
      update_values: { [key(s.fields.amount.item)]: 5 },
    });
    expect(mass.statusCode, mass.body).toBe(200);
    expect((await member.next<DossierEvent>(DOSSIER_EVENTS.changed)).ids.sort()).toEqual([a, b].sort());

    const archive = await s.admin.post('/api/contentdossier/archive', {
      environment: s.environment.id,
      ids: [a, b],
    });
    expect(archive.statusCode, archive.body).toBe(200);
    const archived = await member.next<DossierEvent>(DOSSIER_EVENTS.archived);
    expect(archived.archived).toBe(true);
    expect(archived.ids.sort()).toEqual([a, b].sort());
    expect(
      (await s.admin.post('/api/contentdossier/dearchive', { environment: s.environment.id, ids: [a, b] }))
        .statusCode,
    ).toBe(200);
    expect((await member.next<DossierEvent>(DOSSIER_EVENTS.archived)).archived).toBe(false);

    await t.db
      .updateTable('def_dossier_def_field')
      .set({ obligatory: false })
      .where('id', '=', s.fields.name.dataField.id)
      .execute();
    const series = await s.admin.post('/api/contentdossier/series', {
      defDossier: s.client.id,
      values: { [key(s.fields.extra.item)]: 'series' },
      dateItem: s.fields.date.item.id,
      recurrence: { frequency: 'daily', start: '2030-01-01', end: { type: 'count', count: 3 } },
    });
    expect(series.statusCode, series.body).toBe(201);
    expect((await member.next<DossierEvent>(DOSSIER_EVENTS.created)).ids).toEqual(series.json().ids);

    const merge = await s.admin.post('/api/contentdossier/merge', {
      environment: s.environment.id,
      dossiers: { action: 'delete', ids: [a, b] },
      mergeDossier: [],
    });
    expect(merge.statusCode, merge.body).toBe(201);
    expect((await member.next<DossierEvent>(DOSSIER_EVENTS.created)).ids).toEqual([merge.json().id]);
    expect((await member.next<DossierEvent>(DOSSIER_EVENTS.deleted)).ids).toEqual([a, b]);
  });

  test('a member deactivated or removed hears no more of the environment', async () => {
    const s = await dossierSetup(t);
    const { member } = await listen(s);
    const url = `/api/environment/${s.environment.id}/member/${s.memberId}`;
    expect((await s.admin.patch(url, { active: false })).statusCode).toBe(200);
    const id = await createOk(s, { [key(s.fields.name.item)]: 'Unheard' });
    // a bystander who stays in the room hears it: by then the member would have too
    const admin = await joinedSocket(baseUrl, s.admin, s.environment.id);
    open.push(admin);
    await createOk(s, { [key(s.fields.name.item)]: 'Heard' });
    await admin.next(DOSSIER_EVENTS.created);
    expect(member.heard.filter((h) => h.event.startsWith('dossier:'))).toEqual([]);
    expect(id).toBeGreaterThan(0);
    // and cannot join again
    expect(await member.ask('join', { environment: s.environment.id })).toMatchObject({ ok: false });
  });
});
