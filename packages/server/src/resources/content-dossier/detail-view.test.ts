import type { DossierDetail } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDossier,
  buildPermission,
  setItemRoles,
} from '../../../test/entity-factories';
import { addMember, buildDefDossier, buildEnvironment, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { UNKNOWN_VIEW } from './read-model';

// GET /api/contentdossier/{id}?view=NAME: a dossier with the items of one view (the side panel of an
// embedded list whose link names a view in passing_sidebar) instead of its page's.

let t: TestApp;
let admin: TestClient;
let member: TestClient;
let dossierId: number;
const item: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const [a, m] = await Promise.all([t.signIn(), t.signIn()]);
  admin = a.client;
  member = m.client;
  const environment = await buildEnvironment(t.db, {
    members: [{ user: a.user, credentials: ['environment-admin'] }],
  });
  const env = environment.id;
  const reader = await buildRole(t.db, env, 'Reader');
  const secret = await buildRole(t.db, env, 'Secret');
  await addMember(t.db, env, { user: m.user, roleIds: [reader.id] });
  const task = await buildDefDossier(t.db, env, { name: 'Task' });
  const other = await buildDefDossier(t.db, env, { name: 'Other' });
  await buildPermission(t.db, task, reader.id, ['show']);
  const field = async (name: string) =>
    buildDataField(t.db, task, (await buildDefField(t.db, env, { type: 'text' })).id, { name });
  const title = await field('title');
  const notes = await field('notes');
  const cost = await field('cost');
  await t.db
    .insertInto('display_custom_view')
    .values([
      { environment_id: env, def_dossier_id: task.id, view_name: 'Sidebar' },
      { environment_id: env, def_dossier_id: other.id, view_name: 'Elsewhere' },
    ])
    .execute();
  item.pageTitle = (await buildDisplayItem(t.db, task, { dataFieldId: title.id, view: 'show/edit' })).id;
  item.showNotes = (await buildDisplayItem(t.db, task, { dataFieldId: notes.id, view: 'show' })).id;
  item.sideNotes = (await buildDisplayItem(t.db, task, { dataFieldId: notes.id, view: 'Sidebar' })).id;
  item.sideCost = (await buildDisplayItem(t.db, task, { dataFieldId: cost.id, view: 'Sidebar' })).id;
  await setItemRoles(t.db, item.sideCost, 'INCLUDE_SELECTED_ROLES', [secret.id]);
  dossierId = await buildDossier(t.db, task, 'Design', {
    [title.id]: 'Design',
    [notes.id]: 'Sketch it',
    [cost.id]: '120',
  });
});

afterAll(() => t.close());

const read = (client: TestClient, view?: string) =>
  client.get(
    `/api/contentdossier/${dossierId}${view === undefined ? '' : `?view=${encodeURIComponent(view)}`}`,
  );

const itemsAndContent = (detail: DossierDetail) => ({
  items: detail.items.map((i) => i.id).sort((a, b) => a - b),
  content: detail.content,
});

describe('a dossier in one view', () => {
  it("answers the custom view's items and their values, as the reader may see them", async () => {
    const asAdmin = await read(admin, 'Sidebar');
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(itemsAndContent(asAdmin.json())).toEqual({
      items: [item.sideNotes, item.sideCost],
      content: { [item.sideNotes]: 'Sketch it', [item.sideCost]: '120' },
    });
    // the cost item is for the Secret role only
    expect(itemsAndContent((await read(member, 'Sidebar')).json())).toEqual({
      items: [item.sideNotes],
      content: { [item.sideNotes]: 'Sketch it' },
    });
  });

  it("answers a standard view's items alone, and the page's without a view", async () => {
    expect(itemsAndContent((await read(member, 'show')).json())).toEqual({
      items: [item.showNotes],
      content: { [item.showNotes]: 'Sketch it' },
    });
    expect(itemsAndContent((await read(member)).json()).items).toEqual([item.pageTitle, item.showNotes]);
  });

  it("refuses a view the entity does not have, another entity's custom view among them", async () => {
    for (const view of ['Nothing', 'Elsewhere', 'sidebar'])
      expect((await read(admin, view)).json()).toEqual({ errors: { view: UNKNOWN_VIEW } });
  });
});
