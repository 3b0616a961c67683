import { ENVIRONMENT_MESSAGES, ENVIRONMENT_SETTINGS_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type AdminSetup,
  adminSetup,
  expectForbidden,
  expectNotFound,
  put,
} from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';

// The environment's own settings (PATCH /api/environment/:id) and modules (PUT .../module/:name).

const PNG_PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let t: TestApp;
let s: AdminSetup;
let superAdmin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  s = await adminSetup(t);
  superAdmin = (await t.signIn({ roles: ['ROLE_ADMIN'] })).client;
});
afterAll(() => t.close());

const patch = (client: TestClient, body: unknown, id = s.environment.id) =>
  client.patch(`/api/environment/${id}`, body);

test('its admin changes name, description, help contact, colour and logo; wrong input gets a message each', async () => {
  const changed = await patch(s.admin, {
    name: ' Renamed ',
    description: 'What we do',
    help_contact: 'help@example.org',
    color: '#1a7f37',
    image: PNG_PIXEL,
  });
  expect(changed.statusCode, changed.body).toBe(200);
  expect(changed.json()).toMatchObject({
    name: 'Renamed',
    description: 'What we do',
    settings: { help_contact: 'help@example.org', color: '#1a7f37' },
  });
  const logo = await s.admin.get(`/api/environment/${s.environment.id}/logo`);
  expect(logo.statusCode).toBe(200);
  expect(logo.headers['content-type']).toBe('image/png');

  const wrong = await patch(s.admin, { name: '', color: 'green', image: 'data:text/html;base64,PGI+' });
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json().errors).toMatchObject({
    name: 'This is a required field',
    color: ENVIRONMENT_SETTINGS_MESSAGES.color,
  });
  const notImage = await patch(s.admin, { image: 'data:image/png;base64,PGI+' });
  expect(notImage.json().errors).toEqual({ image: ENVIRONMENT_MESSAGES.imageType });
  // nothing of a refused change was stored; null takes the logo and the colour away
  expect((await s.admin.get(`/api/environment/${s.environment.id}`)).json().name).toBe('Renamed');
  const cleared = await patch(s.admin, { image: null, color: null });
  expect(cleared.json().settings.color).toBeNull();
  expect((await s.admin.get(`/api/environment/${s.environment.id}/logo`)).statusCode).toBe(404);
});

test('only a super admin switches an environment off and on again', async () => {
  const refused = await patch(s.admin, { active: false });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().errors).toEqual({ active: ENVIRONMENT_SETTINGS_MESSAGES.superAdminOnly });
  expect((await patch(superAdmin, { active: false })).json().active).toBe(false);
  const closed = await s.admin.get(`/api/environment/${s.environment.id}`);
  expect(closed.statusCode).toBe(403);
  expect(closed.json().message).toBe(ENVIRONMENT_MESSAGES.inactive);
  expect((await patch(superAdmin, { active: true })).json().active).toBe(true);
  expect((await s.admin.get(`/api/environment/${s.environment.id}`)).statusCode).toBe(200);
});

test('modules switch on and off with their entities, which must be the environment’s own', async () => {
  const entity = await buildDefDossier(t.db, s.environment.id, { name: 'Shared' });
  const foreign = await buildDefDossier(t.db, s.otherEnvironment.id, { name: 'Foreign' });
  const url = `/api/environment/${s.environment.id}/module/secureshare`;
  const on = await put(s.admin, url, { enabled: true, entities: [entity.id] });
  expect(on.statusCode, on.body).toBe(200);
  expect(on.json().env_modules).toContain('secureshare');
  expect(on.json().settings.modules).toEqual({ secureshare: { entities: [entity.id] } });
  const off = await put(s.admin, url, { enabled: false });
  expect(off.json().env_modules).not.toContain('secureshare');
  expect(off.json().settings.modules.secureshare).toEqual({ entities: [entity.id] });

  const wrongEntity = await put(s.admin, url, { enabled: true, entities: [foreign.id] });
  expect(wrongEntity.json().errors).toEqual({ entities: ENVIRONMENT_SETTINGS_MESSAGES.unknownEntity });
  const unknownModule = await put(s.admin, `/api/environment/${s.environment.id}/module/teleport`, {
    enabled: true,
  });
  expect(unknownModule.statusCode).toBe(400);
});

test('a member, another environment’s admin and an anonymous caller change nothing', async () => {
  expectForbidden(await patch(s.member, { name: 'Taken' }), 'member');
  expectForbidden(
    await put(s.member, `/api/environment/${s.environment.id}/module/reports`, { enabled: true }),
    'member module',
  );
  expectNotFound(await patch(s.outsider, { name: 'Taken' }), 'outsider');
  expectNotFound(
    await put(s.outsider, `/api/environment/${s.environment.id}/module/reports`, { enabled: true }),
    'outsider module',
  );
  expect((await t.client().patch(`/api/environment/${s.environment.id}`, { name: 'Taken' })).statusCode).toBe(
    401,
  );
  const after = await s.admin.get(`/api/environment/${s.environment.id}`);
  expect(after.json().name).not.toBe('Taken');
  expect(after.json().env_modules).not.toContain('reports');
});
