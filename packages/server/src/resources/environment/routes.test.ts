import { randomBytes } from 'node:crypto';
import { ENVIRONMENT_MESSAGES, FORBIDDEN_MESSAGE, REQUIRED_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildPermission } from '../../../test/entity-factories';
import {
  addMember,
  buildDefDossier,
  buildEnvironment,
  buildRole,
  buildSubscription,
  buildUser,
  type UserOverrides,
} from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

const ADMIN_ROLES = ['ROLE_USER', 'ROLE_ADMIN'];
const CONTRACT_ADMIN_ROLES = ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'];

// The smallest valid PNG: a 1x1 transparent pixel.
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const pngDataUrl = (bytes: Buffer = PNG_BYTES) => `data:image/png;base64,${bytes.toString('base64')}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tag = () => `T${randomBytes(4).toString('hex')}`;

const signIn = (overrides: UserOverrides = {}) => t.signIn(overrides);

const names = (body: { results: { name: string }[] }) => body.results.map((e) => e.name);

describe('GET /api/environment', () => {
  test('signed out: 401', async () => {
    const response = await t.client().get('/api/environment');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not signed in' });
  });

  test('pages by 12 by default, ordered by name', async () => {
    const { user, client } = await signIn();
    const prefix = tag();
    // Created out of order; the list sorts by name, case-insensitively.
    const order = [5, 12, 0, 3, 9, 1, 11, 7, 2, 10, 4, 8, 6];
    for (const i of order) {
      const name = `${i % 2 ? prefix.toLowerCase() : prefix} ${String(i).padStart(2, '0')}`;
      await buildEnvironment(t.db, { name, members: [{ user }] });
    }
    const first = await client.get('/api/environment');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.pager).toEqual({ current: 0, pages: 2, items: 13, limit: 12 });
    expect(body.results).toHaveLength(12);
    const numbers = body.results.map((e: { name: string }) => Number(e.name.split(' ')[1]));
    expect(numbers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);

    const second = await client.get('/api/environment?page=1');
    expect(second.statusCode).toBe(200);
    expect(second.json().pager).toEqual({ current: 1, pages: 2, items: 13, limit: 12 });
    expect(names(second.json())).toEqual([`${prefix} 12`]);

    const limited = await client.get('/api/environment?limit=5&page=2');
    expect(limited.json().pager).toEqual({ current: 2, pages: 3, items: 13, limit: 5 });
    expect(limited.json().results).toHaveLength(3);

    const beyond = await client.get('/api/environment?page=5');
    expect(beyond.statusCode).toBe(200);
    expect(beyond.json()).toEqual({ results: [], pager: { current: 5, pages: 2, items: 13, limit: 12 } });
  });

  test('bad paging parameters: 400', async () => {
    const { client } = await signIn();
    for (const query of ['limit=0', 'limit=101', 'page=-1', 'limit=abc']) {
      const response = await client.get(`/api/environment?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().errors), query).toEqual([query.split('=')[0]]);
    }
  });

  test('name search is case-insensitive and takes % and _ literally', async () => {
    const { user, client } = await signIn();
    const prefix = tag();
    for (const suffix of [
      'Alpha',
      'alphabet',
      'Beta',
      '100%',
      '1000',
      'a_b',
      'axb',
      'back\\slash',
      'backslash',
    ]) {
      await buildEnvironment(t.db, { name: `${prefix} ${suffix}`, members: [{ user }] });
    }
    const search = async (name: string) => {
      const response = await client.get(`/api/environment?${new URLSearchParams({ name })}`);
      expect(response.statusCode).toBe(200);
      return names(response.json()).map((n) => n.slice(prefix.length + 1));
    };
    expect(await search('ALPHA')).toEqual(['Alpha', 'alphabet']);
    expect(await search(`${prefix.toLowerCase()} b`)).toEqual(['back\\slash', 'backslash', 'Beta']);
    expect(await search('%')).toEqual(['100%']);
    expect(await search('0%')).toEqual(['100%']);
    expect(await search('a_b')).toEqual(['a_b']);
    expect(await search('_')).toEqual(['a_b']);
    expect(await search('\\')).toEqual(['back\\slash']);
    expect(await search('  beta  ')).toEqual(['Beta']);
    expect(await search('nothing like it')).toEqual([]);
    const pager = (await client.get(`/api/environment?name=${prefix}`)).json().pager;
    expect(pager).toEqual({ current: 0, pages: 1, items: 9, limit: 12 });
  });

  test('an ordinary user sees only their own environments; a super admin sees all', async () => {
    const prefix = tag();
    const { user, client } = await signIn();
    const other = await buildUser(t.db);
    await buildEnvironment(t.db, { name: `${prefix} mine`, members: [{ user }] });
    await buildEnvironment(t.db, { name: `${prefix} theirs`, members: [{ user: other }] });
    await buildEnvironment(t.db, { name: `${prefix} nobody's` });

    const own = await client.get(`/api/environment?name=${prefix}`);
    expect(names(own.json())).toEqual([`${prefix} mine`]);
    expect(own.json().pager.items).toBe(1);

    const { client: admin } = await signIn({ roles: ADMIN_ROLES });
    const all = await admin.get(`/api/environment?name=${prefix}`);
    expect(names(all.json())).toEqual([`${prefix} mine`, `${prefix} nobody's`, `${prefix} theirs`]);
    expect(all.json().pager.items).toBe(3);

    // A contract admin is no super admin.
    const { client: contract } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    expect(names((await contract.get(`/api/environment?name=${prefix}`)).json())).toEqual([]);
  });
});

describe('GET /api/environment/:id', () => {
  test('a member gets the environment with its locales, roles, credentials and creator', async () => {
    const { user, client } = await signIn();
    const creator = await buildUser(t.db);
    const environment = await buildEnvironment(t.db, {
      createdBy: creator,
      locales: ['nl_NL', 'en_GB'],
    });
    const roleB = await buildRole(t.db, environment.id, 'B role');
    const roleA = await buildRole(t.db, environment.id, 'A role');
    await addMember(t.db, environment.id, {
      user,
      credentials: ['export', 'quick_search'],
      roleIds: [roleA.id],
    });

    const response = await client.get(`/api/environment/${environment.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: environment.id,
      name: environment.name,
      description: 'A test environment',
      active: true,
      logo: null,
      apply_template: null,
      env_modules: [],
      credentials: ['export', 'quick_search'],
      settings: {},
      created_by: { id: creator.id, username: creator.username },
      modified_by: { id: creator.id, username: creator.username },
      roles: [
        { id: roleA.id, name: 'A role' },
        { id: roleB.id, name: 'B role' },
      ],
      defdossiers: [],
    });
    expect(body.locales.map((l: { code: string }) => l.code)).toEqual(['nl_NL', 'en_GB']);
    expect(body.locales[0]).toEqual({ id: expect.any(Number), code: 'nl_NL', name: 'Nederlands' });
    expect(new Date(body.created_at).getTime()).toBe(environment.created_at.getTime());
  });

  test('unknown: 404; bad id: 400; signed out: 401', async () => {
    const { client } = await signIn();
    const unknown = await client.get('/api/environment/99999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found' });

    for (const id of ['abc', '0', '-3', '1.5']) {
      const bad = await client.get(`/api/environment/${id}`);
      expect(bad.statusCode, id).toBe(400);
      expect(Object.keys(bad.json().errors), id).toEqual(['id']);
    }
    const environment = await buildEnvironment(t.db);
    expect((await t.client().get(`/api/environment/${environment.id}`)).statusCode).toBe(401);
  });

  test("another user's environment: 404 as an unknown one, so its id is not confirmed; a super admin may open it", async () => {
    const { client } = await signIn();
    const owner = await buildUser(t.db);
    const environment = await buildEnvironment(t.db, { members: [{ user: owner }] });
    const response = await client.get(`/api/environment/${environment.id}`);
    const unknown = await client.get('/api/environment/99999999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
    expect(response.json()).toEqual(unknown.json());

    const { client: admin } = await signIn({ roles: ADMIN_ROLES });
    const asAdmin = await admin.get(`/api/environment/${environment.id}`);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().credentials).toEqual([]);
  });

  test('an inactive environment cannot be opened, not even by its members or a super admin', async () => {
    const { user, client } = await signIn();
    const environment = await buildEnvironment(t.db, {
      active: false,
      members: [{ user, credentials: ['environment-admin'] }],
    });
    const response = await client.get(`/api/environment/${environment.id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ENVIRONMENT_MESSAGES.inactive });

    const { client: admin } = await signIn({ roles: ADMIN_ROLES });
    const asAdmin = await admin.get(`/api/environment/${environment.id}`);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json()).toEqual({ message: ENVIRONMENT_MESSAGES.inactive });

    // A non-member learns nothing about whether it is active, nor that it exists.
    const { client: stranger } = await signIn();
    const asStranger = await stranger.get(`/api/environment/${environment.id}`);
    expect(asStranger.statusCode).toBe(404);
    expect(asStranger.json()).toEqual({ message: 'Not found' });
  });

  test('entity definitions: hidden ones for admins only; others need a role with show permission and, when set, a visibility role', async () => {
    const environment = await buildEnvironment(t.db);
    const caseworker = await buildRole(t.db, environment.id, 'Caseworker');
    const manager = await buildRole(t.db, environment.id, 'Manager');
    const open = await buildDefDossier(t.db, environment.id, { type: 'main', rank: 0, name: 'Open' });
    const forCaseworkers = await buildDefDossier(t.db, environment.id, {
      type: 'main',
      rank: 1,
      name: 'For caseworkers',
      visibilityRoles: [caseworker.id],
    });
    const forManagers = await buildDefDossier(t.db, environment.id, {
      type: 'other',
      rank: 2,
      name: 'For managers',
      visibilityRoles: [manager.id],
    });
    const hidden = await buildDefDossier(t.db, environment.id, { type: 'hidden', rank: 3, name: 'Hidden' });
    const hiddenForCaseworkers = await buildDefDossier(t.db, environment.id, {
      type: 'hidden',
      rank: 4,
      name: 'Hidden for caseworkers',
      visibilityRoles: [caseworker.id],
    });
    const all = [open, forCaseworkers, forManagers, hidden, hiddenForCaseworkers].map((d) => d.id);
    for (const entity of [open, forCaseworkers, forManagers, hidden, hiddenForCaseworkers]) {
      await buildPermission(t.db, entity, caseworker.id, ['show']);
      await buildPermission(t.db, entity, manager.id, ['show', 'edit']);
    }
    const noShow = await buildDefDossier(t.db, environment.id, { type: 'main', rank: 5, name: 'No show' });
    await buildPermission(t.db, noShow, caseworker.id, ['edit']);
    all.push(noShow.id);

    const ids = async (client: TestClient) => {
      const response = await client.get(`/api/environment/${environment.id}`);
      expect(response.statusCode).toBe(200);
      return response.json().defdossiers.map((d: { id: number }) => d.id);
    };

    const plain = await signIn();
    await addMember(t.db, environment.id, { user: plain.user });
    expect(await ids(plain.client)).toEqual([]);

    const worker = await signIn();
    await addMember(t.db, environment.id, {
      user: worker.user,
      roleIds: [caseworker.id],
      credentials: ['export'],
    });
    expect(await ids(worker.client)).toEqual([open.id, forCaseworkers.id]);

    const both = await signIn();
    await addMember(t.db, environment.id, { user: both.user, roleIds: [caseworker.id, manager.id] });
    expect(await ids(both.client)).toEqual([open.id, forCaseworkers.id, forManagers.id]);

    const envAdmin = await signIn();
    await addMember(t.db, environment.id, { user: envAdmin.user, credentials: ['environment-admin'] });
    expect(await ids(envAdmin.client)).toEqual(all);

    const superAdmin = await signIn({ roles: ADMIN_ROLES });
    expect(await ids(superAdmin.client)).toEqual(all);

    // The summary has the shape the shell needs.
    const one = (await worker.client.get(`/api/environment/${environment.id}`)).json();
    expect(one.credentials).toEqual(['export']);
    expect(one.defdossiers[1]).toEqual({
      id: forCaseworkers.id,
      uuid: forCaseworkers.uuid,
      type: 'main',
      rank: 1,
      visibility_roles: [caseworker.id],
      query_settings: {},
      dossierqueries: [],
      translations: [
        {
          culture: 'en_GB',
          name: 'For caseworkers',
          name_singular: 'For caseworkers',
          name_plural: 'For caseworkers',
        },
      ],
    });

    // The list applies the same filter.
    const list = await worker.client.get(`/api/environment?name=${encodeURIComponent(environment.name)}`);
    expect(list.json().results[0].defdossiers.map((d: { id: number }) => d.id)).toEqual([
      open.id,
      forCaseworkers.id,
    ]);
  });

  test('credentials are those of the signed-in member, per environment', async () => {
    const { user, client } = await signIn();
    const a = await buildEnvironment(t.db, {
      members: [{ user, credentials: ['environment-admin', 'export'] }],
    });
    const b = await buildEnvironment(t.db, { members: [{ user, credentials: [] }] });
    const other = await buildUser(t.db);
    await addMember(t.db, b.id, { user: other, credentials: ['environment-admin', 'brp'] });
    expect((await client.get(`/api/environment/${a.id}`)).json().credentials).toEqual([
      'environment-admin',
      'export',
    ]);
    expect((await client.get(`/api/environment/${b.id}`)).json().credentials).toEqual([]);
  });

  test('abilities are those of the signed-in user, per environment', async () => {
    const { user, client } = await signIn();
    const admin = await buildEnvironment(t.db, { members: [{ user, credentials: ['environment-admin'] }] });
    const reports = await buildEnvironment(t.db, { members: [{ user, credentials: ['export'] }] });
    const withoutModule = await buildEnvironment(t.db, { members: [{ user, credentials: ['export'] }] });
    await t.db
      .updateTable('environment')
      .set({ env_modules: ['reports'] })
      .where('id', 'in', [admin.id, reports.id])
      .execute();
    const abilities = async (as: typeof client, id: number) =>
      (await as.get(`/api/environment/${id}`)).json().abilities;
    expect(await abilities(client, admin.id)).toEqual({
      canAdminister: true,
      canSeeReports: false,
      canSwitchActive: false,
      canQuickSearch: true,
      canSendPopup: true,
      canUseHourRegistration: false,
      canSeeGanttWarnings: true,
    });
    expect(await abilities(client, reports.id)).toEqual({
      canAdminister: false,
      canSeeReports: true,
      canSwitchActive: false,
      canQuickSearch: false,
      canSendPopup: false,
      canUseHourRegistration: false,
      canSeeGanttWarnings: false,
    });
    expect(await abilities(client, withoutModule.id)).toEqual({
      canAdminister: false,
      canSeeReports: false,
      canSwitchActive: false,
      canQuickSearch: false,
      canSendPopup: false,
      canUseHourRegistration: false,
      canSeeGanttWarnings: false,
    });
    const listed = (await client.get('/api/environment?limit=100')).json().results;
    expect(listed.find((e: { id: number }) => e.id === reports.id).abilities.canSeeReports).toBe(true);
    const superAdmin = await signIn({ roles: ADMIN_ROLES });
    expect((await abilities(superAdmin.client, withoutModule.id)).canAdminister).toBe(true);
  });
});

describe('POST /api/environment', () => {
  const valid = () => ({ name: `New ${tag()}`, description: 'Where the cases live' });

  test('an ordinary user may not create environments', async () => {
    const { user, client } = await signIn();
    await buildSubscription(t.db, user.id, 5);
    const response = await client.post('/api/environment', valid());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: FORBIDDEN_MESSAGE });
  });

  test('signed out: 401; without the CSRF header: 403', async () => {
    expect((await t.client().post('/api/environment', valid())).statusCode).toBe(401);
    const { user, client } = await signIn({ roles: ADMIN_ROLES });
    client.csrf = false;
    const body = valid();
    const response = await client.post('/api/environment', body);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/X-Requested-With/);
    const created = await t.db
      .selectFrom('environment')
      .select('id')
      .where('created_by', '=', user.id)
      .execute();
    expect(created).toEqual([]);
  });

  test('two admins creating environments at the same moment: both are created', async () => {
    const admins = await Promise.all([signIn({ roles: ADMIN_ROLES }), signIn({ roles: ADMIN_ROLES })]);
    const responses = await Promise.all(admins.map(({ client }) => client.post('/api/environment', valid())));
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201]);
    const [one, two] = responses.map((r) => r.json().id);
    expect(one).not.toBe(two);
  });

  test('a contract admin without a subscription: 403 with the limit message', async () => {
    const { user, client } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    const response = await client.post('/api/environment', valid());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: ENVIRONMENT_MESSAGES.limit });
    expect(
      await t.db.selectFrom('environment').select('id').where('created_by', '=', user.id).execute(),
    ).toEqual([]);
  });

  test('a contract admin with a subscription for 1: the first is created, the second refused', async () => {
    const { user, client } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    await buildSubscription(t.db, user.id, 1);
    const body = valid();
    const first = await client.post('/api/environment', body);
    expect(first.statusCode).toBe(201);
    const created = first.json();
    expect(created).toMatchObject({
      id: expect.any(Number),
      name: body.name,
      description: body.description,
      active: true,
      logo: null,
      apply_template: null,
      credentials: ['environment-admin', 'export', 'quick_search'],
      created_by: { id: user.id, username: user.username },
      modified_by: { id: user.id, username: user.username },
    });
    const membership = await t.db
      .selectFrom('environment_user')
      .selectAll()
      .where('environment_id', '=', created.id)
      .execute();
    expect(membership).toHaveLength(1);
    expect(membership[0]).toMatchObject({ user_id: user.id });
    expect(membership[0].credentials).toContain('environment-admin');

    // The creator can open it and finds it in their list.
    expect((await client.get(`/api/environment/${created.id}`)).statusCode).toBe(200);
    expect(names((await client.get('/api/environment')).json())).toEqual([body.name]);

    const second = await client.post('/api/environment', valid());
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({ message: ENVIRONMENT_MESSAGES.limit });
    const count = await t.db
      .selectFrom('environment')
      .select('id')
      .where('created_by', '=', user.id)
      .execute();
    expect(count).toHaveLength(1);
  });

  test('two creations at the same time cannot both slip under the limit', async () => {
    const { user, client } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    await buildSubscription(t.db, user.id, 1);
    const responses = await Promise.all([
      client.post('/api/environment', valid()),
      client.post('/api/environment', valid()),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    const count = await t.db
      .selectFrom('environment')
      .select('id')
      .where('created_by', '=', user.id)
      .execute();
    expect(count).toHaveLength(1);
  });

  test('an expired subscription allows nothing; a refused request does not use up the limit', async () => {
    const { user, client } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    await buildSubscription(t.db, user.id, 5, -1);
    const expired = await client.post('/api/environment', valid());
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ message: ENVIRONMENT_MESSAGES.limit });

    await buildSubscription(t.db, user.id, 1);
    const invalid = await client.post('/api/environment', {
      ...valid(),
      image: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    });
    expect(invalid.statusCode).toBe(400);
    expect((await client.post('/api/environment', valid())).statusCode).toBe(201);
  });

  test('a super admin is not limited', async () => {
    const { user, client } = await signIn({ roles: ADMIN_ROLES });
    for (let i = 0; i < 3; i++) {
      const response = await client.post('/api/environment', valid());
      expect(response.statusCode).toBe(201);
      expect(response.json().credentials).toEqual(['environment-admin', 'export', 'quick_search']);
    }
    const count = await t.db
      .selectFrom('environment')
      .select('id')
      .where('created_by', '=', user.id)
      .execute();
    expect(count).toHaveLength(3);
  });

  test('missing or blank name and description: 400 with field messages', async () => {
    const { client } = await signIn({ roles: ADMIN_ROLES });
    const missing = await client.post('/api/environment', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: { name: REQUIRED_MESSAGE, description: REQUIRED_MESSAGE } });

    const blank = await client.post('/api/environment', { name: '   ', description: 'ok' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ errors: { name: REQUIRED_MESSAGE } });

    const long = await client.post('/api/environment', { name: 'x'.repeat(101), description: 'ok' });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ errors: { name: 'At most 100 characters' } });
  });

  test('the image must really be a PNG or JPEG', async () => {
    const { user, client } = await signIn({ roles: ADMIN_ROLES });
    const images = [
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      `data:image/png;base64,${Buffer.from('GIF89a not a png at all').toString('base64')}`,
      `data:image/jpeg;base64,${Buffer.from('plain text').toString('base64')}`,
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'https://example.test/logo.png',
      'not a data url',
    ];
    for (const image of images) {
      const response = await client.post('/api/environment', { ...valid(), image });
      expect(response.statusCode, image).toBe(400);
      expect(response.json(), image).toEqual({ errors: { image: ENVIRONMENT_MESSAGES.imageType } });
    }
    const tooBig = Buffer.concat([PNG_BYTES, Buffer.alloc(2 * 1024 * 1024)]);
    const big = await client.post('/api/environment', { ...valid(), image: pngDataUrl(tooBig) });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({ errors: { image: 'The image may be at most 2 MB' } });

    const created = await t.db
      .selectFrom('environment')
      .select('id')
      .where('created_by', '=', user.id)
      .execute();
    expect(created).toEqual([]);
  });

  test('a valid PNG logo is stored and served to members', async () => {
    const { user, client } = await signIn({ roles: CONTRACT_ADMIN_ROLES });
    await buildSubscription(t.db, user.id, 2);
    const response = await client.post('/api/environment', { ...valid(), image: pngDataUrl() });
    expect(response.statusCode).toBe(201);
    const { id, logo } = response.json();
    expect(logo).toMatch(new RegExp(`^/api/environment/${id}/logo\\?v=\\d+$`));

    const image = await client.get(logo);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG_BYTES)).toBe(true);

    const row = await t.db
      .selectFrom('environment')
      .select(['logo_mime'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.logo_mime).toBe('image/png');

    // Not for strangers, who learn nothing of the environment.
    const { client: stranger } = await signIn();
    const refused = await stranger.get(logo);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Not found' });
  });

  test('a JPEG logo is served as image/jpeg; no logo is 404', async () => {
    const { client } = await signIn({ roles: ADMIN_ROLES });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);
    const response = await client.post('/api/environment', {
      ...valid(),
      image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    });
    expect(response.statusCode).toBe(201);
    const image = await client.get(response.json().logo);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.equals(jpeg)).toBe(true);

    const plain = await client.post('/api/environment', valid());
    const none = await client.get(`/api/environment/${plain.json().id}/logo`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'No logo' });
  });

  test('a template must exist; an existing one is recorded', async () => {
    const { client } = await signIn({ roles: ADMIN_ROLES });
    const unknown = await client.post('/api/environment', { ...valid(), template: 99999999 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ errors: { template: 'Unknown template' } });

    const template = await t.db
      .insertInto('template')
      .values({ name: `Template ${tag()}`, description: 'd', template: {}, translations: JSON.stringify([]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const known = await client.post('/api/environment', { ...valid(), template: template.id });
    expect(known.statusCode).toBe(201);
    expect(known.json().apply_template).toBe(template.id);
  });
});

describe('environment locales', () => {
  async function adminOf(environmentId: number) {
    const member = await signIn();
    await addMember(t.db, environmentId, { user: member.user, credentials: ['environment-admin'] });
    return member.client;
  }

  test('an environment admin adds a language once; the list follows the order of adding', async () => {
    const environment = await buildEnvironment(t.db, { locales: ['en_GB'] });
    const client = await adminOf(environment.id);
    const added = await client.post('/api/environment-locale', {
      environment: environment.id,
      code: 'nl_NL',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ id: expect.any(Number), code: 'nl_NL', name: 'Nederlands' });

    const again = await client.post('/api/environment-locale', {
      environment: environment.id,
      code: 'nl_NL',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: { code: 'This language is already added' } });

    expect(
      (await client.post('/api/environment-locale', { environment: environment.id, code: 'de_DE' }))
        .statusCode,
    ).toBe(201);

    const list = await client.get(`/api/environment-locale?environment=${environment.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((l: { code: string }) => l.code)).toEqual(['en_GB', 'nl_NL', 'de_DE']);
    expect(list.json().results[1]).toEqual(added.json());
    const rows = await t.db
      .selectFrom('environment_locale')
      .select('rank')
      .where('environment_id', '=', environment.id)
      .orderBy('rank')
      .execute();
    expect(rows.map((r) => r.rank)).toEqual([0, 1, 2]);
  });

  test('unknown language or missing fields: 400', async () => {
    const environment = await buildEnvironment(t.db);
    const client = await adminOf(environment.id);
    const unknown = await client.post('/api/environment-locale', {
      environment: environment.id,
      code: 'xx_XX',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ errors: { code: "Unknown language 'xx_XX'" } });

    const missing = await client.post('/api/environment-locale', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ errors: { environment: REQUIRED_MESSAGE, code: REQUIRED_MESSAGE } });
  });

  test('an ordinary member and a non-member may not add languages', async () => {
    const environment = await buildEnvironment(t.db);
    const member = await signIn();
    await addMember(t.db, environment.id, { user: member.user, credentials: ['export', 'quick_search'] });
    const asMember = await member.client.post('/api/environment-locale', {
      environment: environment.id,
      code: 'fr_FR',
    });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toEqual({ message: FORBIDDEN_MESSAGE });

    // An admin of another environment is a stranger here: as if it did not exist.
    const elsewhere = await buildEnvironment(t.db);
    const otherAdmin = await adminOf(elsewhere.id);
    const asStranger = await otherAdmin.post('/api/environment-locale', {
      environment: environment.id,
      code: 'fr_FR',
    });
    expect(asStranger.statusCode).toBe(404);
    expect(asStranger.json()).toEqual({ message: 'Not found' });

    const locales = await t.db
      .selectFrom('environment_locale')
      .select('id')
      .where('environment_id', '=', environment.id)
      .execute();
    expect(locales).toHaveLength(1);

    const list = await otherAdmin.get(`/api/environment-locale?environment=${environment.id}`);
    expect(list.statusCode).toBe(404);
  });

  test('a super admin may add languages anywhere; unknown environment is 404', async () => {
    const environment = await buildEnvironment(t.db);
    const { client } = await signIn({ roles: ADMIN_ROLES });
    const added = await client.post('/api/environment-locale', {
      environment: environment.id,
      code: 'es_CO',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ code: 'es_CO', name: 'Español (Colombia)' });

    const unknown = await client.post('/api/environment-locale', { environment: 99999999, code: 'es_CO' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found' });
  });

  test('GET without or with a bad environment: 400', async () => {
    const { client } = await signIn();
    expect((await client.get('/api/environment-locale')).statusCode).toBe(400);
    expect((await client.get('/api/environment-locale?environment=abc')).statusCode).toBe(400);
  });
});
