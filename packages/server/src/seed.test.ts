import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { seedDemo } from './seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('the first start seeds a demo environment with an admin and a demo user; later starts do nothing', async () => {
  const result = await seedDemo(t.db, { adminPassword: 'admin password 1', demoPassword: null });
  expect(result.created).toBe(true);
  // Only the password that was not given is generated and reported.
  expect(result.generated).toEqual([{ username: 'demo', password: expect.stringMatching(/^[\w-]{16}$/) }]);
  const demoPassword = result.generated[0].password;

  const admin = await t.client().login('admin', 'admin password 1');
  const demo = await t.client().login('demo', demoPassword);

  const adminList = (await admin.get('/api/environment')).json();
  expect(adminList.results.map((e: { name: string }) => e.name)).toEqual(['Demo']);
  const environment = adminList.results[0];
  expect(environment.locales.map((l: { code: string }) => l.code)).toEqual(['en_GB', 'nl_NL']);
  expect(environment.roles.map((r: { name: string }) => r.name)).toEqual(['Caseworker', 'Manager']);
  expect(environment.credentials).toEqual(['environment-admin', 'export', 'quick_search']);
  const plural = (body: { defdossiers: { translations: { name_plural: string }[] }[] }) =>
    body.defdossiers.map((d) => d.translations[0].name_plural);
  expect(plural(environment)).toEqual(['Clients', 'Organisations', 'Settings', 'Cases']);
  expect(environment.defdossiers.map((d: { type: string }) => d.type).sort()).toEqual([
    'hidden',
    'main',
    'main',
    'other',
  ]);

  const demoEnvironment = (await demo.get(`/api/environment/${environment.id}`)).json();
  expect(demoEnvironment.credentials).toEqual(['quick_search']);
  // The demo user does not see the hidden entity.
  expect(plural(demoEnvironment)).toEqual(['Clients', 'Organisations', 'Cases']);
  expect(demoEnvironment.defdossiers[0].translations.map((tr: { culture: string }) => tr.culture)).toEqual([
    'en_GB',
    'nl_NL',
  ]);

  const roles = await t.db.selectFrom('role').select('translations').execute();
  expect(roles.map((r) => r.translations)).toEqual([[], []]);
  const profile = (await demo.get('/api/user/profile')).json();
  expect(profile).toMatchObject({
    username: 'demo',
    roles: ['ROLE_USER'],
    private_settings: { presence: 'online' },
  });
  expect((await admin.get('/api/user/profile')).json().roles).toEqual(['ROLE_USER', 'ROLE_ADMIN']);

  const again = await seedDemo(t.db, { adminPassword: null, demoPassword: null });
  expect(again).toEqual({ created: false, generated: [] });
  const users = await t.db.selectFrom('app_user').select('username').orderBy('id').execute();
  expect(users.map((u) => u.username)).toEqual(['admin', 'demo']);
});
