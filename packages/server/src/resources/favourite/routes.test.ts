import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDossier, buildPermission } from '../../../test/entity-factories';
import { type AdminSetup, adminSetup, put } from '../../../test/entity-test-setup';
import { buildDefDossier, buildRole } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

// GET /api/contentdossier/favorites: the favourites side panel's list (issue 21, part 1).

let t: TestApp;
let s: AdminSetup;
let env: number;
let role: number;
let client: Awaited<ReturnType<typeof buildDefDossier>>;
let secret: Awaited<ReturnType<typeof buildDefDossier>>;
const ids: Record<string, number> = {};

const mark = async (who: TestClient, id: number) => {
  const response = await who.post(`/api/contentdossier/${id}/favorite`);
  expect(response.statusCode, response.body).toBe(200);
};

async function favourites(who: TestClient, params: Record<string, string | number> = {}) {
  const query = new URLSearchParams(
    Object.entries({ environment: env, ...params }).map(([k, v]): [string, string] => [k, String(v)]),
  );
  const response = await who.get(`/api/contentdossier/favorites?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    results: { id: number; content_dossier_id: number; def_dossier_id: number; summary: string }[];
    pager: { current: number; pages: number; items: number; limit: number };
  };
}

beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  env = s.environment.id;
  role = (await buildRole(t.db, env, 'Reader')).id;
  await t.db
    .updateTable('environment_user')
    .set({ role_ids: [role] })
    .where('environment_id', '=', env)
    .where('user_id', '=', s.memberId)
    .execute();
  client = await buildDefDossier(t.db, env, { name: 'Client' });
  secret = await buildDefDossier(t.db, env, { name: 'Secret' });
  await buildPermission(t.db, client, role, ['show']);
  await buildPermission(t.db, secret, role, ['show']);
  for (let i = 1; i <= 12; i += 1) {
    ids[`client${i}`] = await buildDossier(t.db, client, `Client number ${i} ${'x'.repeat(60)}`);
    await mark(s.member, ids[`client${i}`]);
  }
  ids.secret = await buildDossier(t.db, secret, 'Secret plan');
  await mark(s.member, ids.secret);
  // the admin's own favourite is not the member's
  ids.admins = await buildDossier(t.db, client, 'Admin favourite');
  await mark(s.admin, ids.admins);
});
afterAll(() => t?.close());

describe('GET /api/contentdossier/favorites', () => {
  test('pages of 10 by default, newest favourite first, with the summary and entity', async () => {
    const first = await favourites(s.member);
    expect(first.pager).toEqual({ current: 0, pages: 2, items: 13, limit: 10 });
    expect(first.results).toHaveLength(10);
    expect(first.results[0]).toEqual({
      id: expect.any(Number),
      content_dossier_id: ids.secret,
      def_dossier_id: secret.id,
      summary: 'Secret plan',
      created_at: expect.any(String),
    });
    const second = await favourites(s.member, { page: 1 });
    expect(second.results.map((f) => f.content_dossier_id)).toEqual([ids.client3, ids.client2, ids.client1]);
    expect((await favourites(s.admin)).results.map((f) => f.content_dossier_id)).toEqual([ids.admins]);
  });

  test('searches the summaries', async () => {
    const found = await favourites(s.member, { search: 'number 1' });
    expect(found.results.map((f) => f.content_dossier_id).sort((a, b) => a - b)).toEqual(
      [ids.client1, ids.client10, ids.client11, ids.client12].sort((a, b) => a - b),
    );
    expect((await favourites(s.member, { search: '%' })).results).toEqual([]);
  });

  test('a dossier the user can no longer see drops out, and comes back with the permission', async () => {
    const revoke = await put(s.admin, '/api/permission', {
      environment: env,
      defDossier: secret.id,
      role,
      actions: [],
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    const after = await favourites(s.member);
    expect(after.pager.items).toBe(12);
    expect(after.results.map((f) => f.content_dossier_id)).not.toContain(ids.secret);
    const grant = await put(s.admin, '/api/permission', {
      environment: env,
      defDossier: secret.id,
      role,
      actions: ['show'],
    });
    expect(grant.statusCode, grant.body).toBe(200);
    expect((await favourites(s.member)).pager.items).toBe(13);
  });

  test('removing a favourite and deleting a dossier take it off the list', async () => {
    const removed = await s.member.request({
      method: 'DELETE',
      url: `/api/contentdossier/${ids.client12}/favorite`,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const deleted = await s.admin.request({ method: 'DELETE', url: `/api/contentdossier/${ids.client11}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const list = (await favourites(s.member, { limit: 50 })).results.map((f) => f.content_dossier_id);
    expect(list).not.toContain(ids.client12);
    expect(list).not.toContain(ids.client11);
    expect(list).toHaveLength(11);
  });

  test("another environment's favourites are not found; bad parameters answer 400", async () => {
    expect((await s.outsider.get(`/api/contentdossier/favorites?environment=${env}`)).statusCode).toBe(404);
    expect((await t.client().get(`/api/contentdossier/favorites?environment=${env}`)).statusCode).toBe(401);
    for (const query of ['environment=x', `environment=${env}&limit=0`, `environment=${env}&page=-1`]) {
      expect((await s.member.get(`/api/contentdossier/favorites?${query}`)).statusCode, query).toBe(400);
    }
  });
});
