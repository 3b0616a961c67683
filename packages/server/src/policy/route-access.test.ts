import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildEnvironment } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ACCESS_COOKIE } from '../auth/session';
import { enforceRouteAccess } from './route-access';

describe('route access levels', () => {
  test('a route without an access level stops the start-up; plugin routes need none', async () => {
    const app = Fastify();
    enforceRouteAccess(app);
    const handler = async () => ({});
    expect(() => app.post('/api/new-thing', handler)).toThrow(/declare who may call it/);
    expect(() => app.post('/api/new-thing', { config: {} }, handler)).toThrow(/declare who may call it/);
    app.get('/api/declared', { config: { access: 'signedIn' } }, handler);
    // the documentation, the /api catch-all and the web client's files are registered by plugins
    app.get('/api/docs/json', handler);
    app.all('/api/*', handler);
    app.get('/assets/app.js', handler);
    await app.ready();
    expect(app.routeAccessTable).toContainEqual({
      method: 'GET',
      url: '/api/declared',
      access: 'signedIn',
      declared: true,
    });
    expect(app.routeAccessTable.find((route) => route.url === '/api/docs/json')).toMatchObject({
      access: 'public',
      declared: false,
    });
    // HEAD twins of GET routes run the same handler and are not listed twice
    expect(app.routeAccessTable.filter((route) => route.url === '/api/declared')).toHaveLength(1);
    await app.close();
  });

  describe('in the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    test('unknown paths answer 404 to anybody: the not-found handler is public', async () => {
      const anonymous = t.client();
      expect((await anonymous.get('/environment/12/some/page')).statusCode).toBe(404);
      expect((await anonymous.post('/api/no-such-call', { a: 1 })).statusCode).toBe(404);
      expect((await anonymous.get('/api/config')).statusCode).toBe(200);
    });

    test('a signed-in route refuses a caller whose token is not valid before reading the body', async () => {
      const forged = t.client();
      forged.cookies.set(ACCESS_COOKIE, 'not-a-token');
      const response = await forged.request({
        method: 'PATCH',
        url: '/api/user/profile',
        payload: { email: 'not an e-mail address' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).not.toHaveProperty('errors');
    });

    test('an environment admin passes the admin check; the handler still decides per environment', async () => {
      const { client } = await t.signIn();
      const { user: admin, client: adminClient } = await t.signIn();
      await buildEnvironment(t.db, { members: [{ user: admin, credentials: ['environment-admin'] }] });
      const garbage = { environment: 'x' };
      // an ordinary user learns nothing of the admin call's schema
      const refused = await client.post('/api/role', garbage);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).not.toHaveProperty('errors');
      // an admin gets the field messages, and a 404 for an environment that is not theirs
      expect((await adminClient.post('/api/role', garbage)).json()).toHaveProperty('errors.environment');
      expect(
        (await adminClient.post('/api/role', { environment: 2_000_000_000, name: 'R' })).statusCode,
      ).toBe(404);
    });
  });
});
