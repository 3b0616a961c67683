import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CSRF_HEADER, FORBIDDEN_MESSAGE } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSubscription, buildUser, type UserOverrides } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tag = () => `T${randomBytes(4).toString('hex')}`;

const signIn = (overrides: UserOverrides = {}) => t.signIn(overrides);

describe('GET /api/config', () => {
  test('answers the public client settings without sign-in', async () => {
    const version = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../../../package.json'), 'utf8'),
    ).version;
    const response = await t.client().get('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      release: version,
      help_contact: 'support@dossierbase.local',
      idle_limit_seconds: 900,
      idle_prompt_seconds: 300,
      sso: { google: false, azure: false },
    });
  });

  test('reflects the configuration, including which single sign-on providers are set up', async () => {
    const other = await createTestApp({
      release: '9.9.9-test',
      helpContact: 'help@example.test',
      idleLimitSeconds: 60,
      idlePromptSeconds: 10,
      google: { issuer: 'http://127.0.0.1:1', clientId: 'id', clientSecret: 'secret' },
    });
    try {
      const response = await other.client().get('/api/config');
      expect(response.json()).toEqual({
        release: '9.9.9-test',
        help_contact: 'help@example.test',
        idle_limit_seconds: 60,
        idle_prompt_seconds: 10,
        sso: { google: true, azure: false },
      });
      // A provider that is not set up cannot be started.
      const azure = await other.client().get('/api/connect/azure');
      expect(azure.statusCode).toBe(404);
      expect(azure.json()).toEqual({ message: 'azure sign-in is not configured' });
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/locale', () => {
  test('signed out: 401', async () => {
    const response = await t.client().get('/api/locale');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not signed in' });
  });

  test('lists the seven languages', async () => {
    const { client } = await signIn();
    const response = await client.get('/api/locale');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.results.map((l: { code: string }) => l.code)).toEqual([
      'nl_NL',
      'en_GB',
      'fr_FR',
      'es_ES',
      'es_CO',
      'de_DE',
      'ru_RU',
    ]);
    expect(body.results[0]).toEqual({ id: expect.any(Number), code: 'nl_NL', name: 'Nederlands' });
    expect(body.results[6]).toMatchObject({ code: 'ru_RU', name: 'Русский' });
    expect(body.pager).toEqual({ current: 0, pages: 1, items: 7, limit: 7 });
  });
});

describe('GET /api/admin/template', () => {
  async function insertTemplates(names: string[]) {
    const rows = [];
    for (const name of names) {
      rows.push(
        await t.db
          .insertInto('template')
          .values({
            name,
            description: `About ${name}`,
            template: {},
            translations: JSON.stringify([
              { culture: 'en_GB', name, description: `About ${name}`, thumbnail_path: null },
            ]),
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    return rows;
  }

  test('signed out: 401; an ordinary user: 403', async () => {
    expect((await t.client().get('/api/admin/template')).statusCode).toBe(401);
    const { client } = await signIn();
    const response = await client.get('/api/admin/template');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: FORBIDDEN_MESSAGE });
  });

  test('super and contract admins page through templates by 9, ordered by name', async () => {
    const prefix = tag();
    const suffixes = ['k', 'B', 'a', 'J', 'c', 'i', 'D', 'h', 'e', 'G', 'f'];
    const rows = await insertTemplates(suffixes.map((s) => `${prefix} ${s}`));
    for (const roles of [
      ['ROLE_USER', 'ROLE_ADMIN'],
      ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'],
    ]) {
      const { client } = await signIn({ roles });
      const first = await client.get(`/api/admin/template?name=${prefix}`);
      expect(first.statusCode).toBe(200);
      expect(first.json().pager).toEqual({ current: 0, pages: 2, items: 11, limit: 9 });
      expect(first.json().results.map((r: { name: string }) => r.name.slice(-1))).toEqual([
        'a',
        'B',
        'c',
        'D',
        'e',
        'f',
        'G',
        'h',
        'i',
      ]);
      const second = await client.get(`/api/admin/template?name=${prefix}&page=1`);
      expect(second.json().pager).toEqual({ current: 1, pages: 2, items: 11, limit: 9 });
      expect(second.json().results.map((r: { name: string }) => r.name.slice(-1))).toEqual(['J', 'k']);
    }

    const { client } = await signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const one = (await client.get(`/api/admin/template?name=${encodeURIComponent(`${prefix} a`)}`)).json();
    const a = rows[suffixes.indexOf('a')];
    expect(one.results).toEqual([
      {
        id: a.id,
        name: `${prefix} a`,
        description: `About ${prefix} a`,
        created_at: a.created_at.toISOString(),
        translations: [
          { culture: 'en_GB', name: `${prefix} a`, description: `About ${prefix} a`, thumbnail_path: null },
        ],
      },
    ]);
  });

  test('name search is case-insensitive and takes % and _ literally', async () => {
    const prefix = tag();
    await insertTemplates([
      `${prefix} Housing`,
      `${prefix} 50%`,
      `${prefix} 500`,
      `${prefix} a_b`,
      `${prefix} axb`,
    ]);
    const { client } = await signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    const search = async (name: string) =>
      (await client.get(`/api/admin/template?${new URLSearchParams({ name })}`))
        .json()
        .results.map((r: { name: string }) => r.name.slice(prefix.length + 1));
    expect(await search(`${prefix.toLowerCase()} HOUSING`)).toEqual(['Housing']);
    expect(await search(`${prefix} 50%`)).toEqual(['50%']);
    expect(await search(`${prefix} a_b`)).toEqual(['a_b']);
    const limited = await client.get(`/api/admin/template?name=${prefix}&limit=2`);
    expect(limited.json().pager).toEqual({ current: 0, pages: 3, items: 5, limit: 2 });
  });

  test('bad paging parameters: 400', async () => {
    const { client } = await signIn({ roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    for (const query of ['limit=0', 'limit=205', 'page=-1']) {
      const response = await client.get(`/api/admin/template?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().errors)).toEqual([query.split('=')[0]]);
    }
  });
});

describe('GET /api/subscription/active', () => {
  test('signed out: 401', async () => {
    expect((await t.client().get('/api/subscription/active')).statusCode).toBe(401);
  });

  test('without a subscription: null and not expired', async () => {
    const { client } = await signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
    const response = await client.get('/api/subscription/active');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ subscription: null, expired: false });
  });

  test('an active subscription is answered', async () => {
    const { user, client } = await signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
    const subscription = await buildSubscription(t.db, user.id, 3);
    // Someone else's subscription does not count.
    const other = await buildUser(t.db);
    await buildSubscription(t.db, other.id, 50, 400);
    const response = await client.get('/api/subscription/active');
    expect(response.json()).toEqual({
      subscription: {
        id: subscription.id,
        max_environments: 3,
        max_users: null,
        starts_at: subscription.starts_at.toISOString(),
        expires_at: subscription.expires_at.toISOString(),
      },
      expired: false,
    });
  });

  test('only an expired subscription: null and expired', async () => {
    const { user, client } = await signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
    await buildSubscription(t.db, user.id, 3, -1);
    expect((await client.get('/api/subscription/active')).json()).toEqual({
      subscription: null,
      expired: true,
    });
  });

  test('a renewed subscription wins over an expired one; one that has not started is ignored', async () => {
    const { user, client } = await signIn({ roles: ['ROLE_USER', 'ROLE_CONTRACT_ADMIN'] });
    await buildSubscription(t.db, user.id, 1, -10);
    const current = await buildSubscription(t.db, user.id, 4, 20);
    const now = Date.now();
    await t.db
      .insertInto('subscription')
      .values({
        user_id: user.id,
        max_environments: 99,
        starts_at: new Date(now + 5 * 86_400_000),
        expires_at: new Date(now + 400 * 86_400_000),
      })
      .execute();
    const body = (await client.get('/api/subscription/active')).json();
    expect(body).toMatchObject({ subscription: { id: current.id, max_environments: 4 }, expired: false });
  });
});

describe('the API surface', () => {
  test('unknown API routes answer 404 JSON', async () => {
    const response = await t.client().get('/api/no/such/route');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });

  test('state-changing calls need the CSRF header, reads do not', async () => {
    const client = t.client();
    client.csrf = false;
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      const response = await client.request({ method, url: '/api/anything' });
      expect(response.statusCode, method).toBe(403);
      expect(response.json()).toEqual({ message: `The ${CSRF_HEADER} header is required` });
    }
    expect((await client.get('/api/config')).statusCode).toBe(200);
  });

  test('a percent-encoded path does not get past the CSRF check', async () => {
    const { user, client } = await signIn();
    client.csrf = false;
    for (const url of [
      '/%61pi/user/change_password',
      '/api/%75ser/change_password',
      '/API/user/change_password',
    ]) {
      const response = await client.patch(url, {
        current_password: user.password,
        password: 'Another long password 1!',
      });
      expect(response.statusCode, url).toBe(403);
    }
    // nothing changed: the old password still signs in
    await t.client().login(user.username, user.password);
  });

  test('the health call says the database answers', async () => {
    const response = await t.client().get('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  test('security headers are set', async () => {
    const response = await t.client().get('/api/config');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
