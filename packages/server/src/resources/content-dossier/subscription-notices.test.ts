import { UNREAD_EVENT } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { setItemRoles } from '../../../test/entity-factories';
import { put } from '../../../test/entity-test-setup';
import { addMember, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { type DossierSetup, dossierSetup, key } from './fixture';

// Subscriptions at work (issue 21, part 4): a subscriber gets a notice when someone else changes,
// archives or deletes the dossier, at most one per dossier per 10 minutes, with the summary they may see.

let t: TestApp;
let s: DossierSetup;
let env: number;
/** may show the client, but not its name in the summary */
let reader: TestClient;
let readerId: number;
let dossier: number;
/** may show the client and its name */
let secretReader: TestClient;

const notices = async (who: TestClient) => {
  const response = await who.get(`/api/message?environment=${env}&limit=100`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().results.filter((m: { notice: unknown }) => m.notice !== null) as {
    id: number;
    sender_id: number | null;
    content_dossier_id: number;
    notice: { event: string; summary: string; by: string };
  }[];
};

const subscribe = async (who: TestClient, id: number) => {
  const response = await who.post(`/api/contentdossier/${id}/subscription/1`);
  expect(response.statusCode, response.body).toBe(200);
};

/** The 10 quiet minutes are over. */
const later = () =>
  t.db
    .updateTable('subscription_notice')
    .set({ sent_at: new Date(Date.now() - 11 * 60_000) })
    .where('environment_id', '=', env)
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  s = await dossierSetup(t);
  env = s.environment.id;
  await s.grant(s.client, ['show', 'edit', 'archive', 'delete']);
  await t.db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', s.client.id).execute();
  const r = await t.signIn();
  reader = r.client;
  readerId = r.user.id;
  await addMember(t.db, env, { user: r.user, roleIds: [s.role.id] });
  // the name in the summary is for the Secret role only
  const secret = await buildRole(t.db, env, 'Secret');
  const summaryItem = await t.db
    .selectFrom('display_item')
    .select('id')
    .where('def_dossier_id', '=', s.client.id)
    .where('view', '=', 'summary')
    .where('def_dossier_def_field_id', '=', s.fields.name.dataField.id)
    .executeTakeFirstOrThrow();
  await setItemRoles(t.db, summaryItem.id, 'INCLUDE_SELECTED_ROLES', [secret.id]);
  const withSecret = await t.signIn();
  secretReader = withSecret.client;
  await addMember(t.db, env, { user: withSecret.user, roleIds: [s.role.id, secret.id] });
  const created = await s.admin.post('/api/contentdossier', {
    defDossier: s.client.id,
    values: { [key(s.fields.name.item)]: 'Alice Hidden' },
  });
  expect(created.statusCode, created.body).toBe(201);
  dossier = created.json().id;
  await subscribe(reader, dossier);
  await subscribe(s.member, dossier);
  await subscribe(secretReader, dossier);
});
afterAll(() => t?.close());

describe('notices to the subscribers of a dossier', () => {
  test('a change by someone else brings one notice, with the summary the subscriber may see; once per 10 minutes', async () => {
    const pushed = vi.spyOn(t.app.realtime, 'toUser');
    const changed = await put(s.admin, `/api/contentdossier/${dossier}`, {
      values: { [key(s.fields.name.item)]: 'Alice Hidden Again' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = await notices(reader);
    expect(notice).toMatchObject({
      sender_id: null,
      content_dossier_id: dossier,
      notice: { event: 'change' },
    });
    // the name is hidden from this subscriber, in the notice as everywhere
    expect(JSON.stringify(await notices(reader))).not.toContain('Alice');
    expect(notice.notice.summary).toMatch(/^C-/);
    // one who may see the name gets it
    expect((await notices(secretReader))[0].notice.summary).toContain('Alice Hidden Again');
    expect(pushed).toHaveBeenCalledWith(readerId, UNREAD_EVENT, { environment: env, total: 1 });
    expect((await notices(s.member)).map((n) => n.notice.event)).toEqual(['change']);

    // another change within 10 minutes: no second notice
    await put(s.admin, `/api/contentdossier/${dossier}`, {
      values: { [key(s.fields.name.item)]: 'Alice 3' },
    });
    expect(await notices(reader)).toHaveLength(1);
    pushed.mockRestore();
  });

  test("the subscriber's own change brings them nothing; archiving brings the others a notice", async () => {
    await later();
    const own = await put(reader, `/api/contentdossier/${dossier}`, {
      values: { [key(s.fields.email.item)]: 'alice@example.test' },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(await notices(reader)).toHaveLength(1);
    expect((await notices(s.member)).map((n) => n.notice.event)).toEqual(['change', 'change']);

    await later();
    expect((await s.admin.post(`/api/contentdossier/${dossier}/archive`)).statusCode).toBe(200);
    expect((await notices(reader)).map((n) => n.notice.event)).toEqual(['archive', 'change']);
    expect((await s.admin.post(`/api/contentdossier/${dossier}/dearchive`)).statusCode).toBe(200);
  });

  test('a subscriber who may no longer show the dossier gets no notice; a deletion reaches the others', async () => {
    await later();
    const other = await t.signIn();
    await addMember(t.db, env, { user: other.user, roleIds: [] });
    await t.db
      .insertInto('dossier_subscription')
      .values({ environment_id: env, user_id: other.user.id, content_dossier_id: dossier })
      .execute();
    const deleted = await s.admin.request({ method: 'DELETE', url: `/api/contentdossier/${dossier}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await notices(other.client)).toEqual([]);
    const [notice] = await notices(reader);
    expect(notice).toMatchObject({ content_dossier_id: dossier, notice: { event: 'delete' } });
    expect(notice.notice.summary).not.toContain('Alice');
    expect((await notices(s.member))[0].notice).toMatchObject({
      event: 'delete',
      by: expect.any(String),
    });
  });
});
