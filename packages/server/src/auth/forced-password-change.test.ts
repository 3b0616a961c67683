import type { AddressInfo } from 'node:net';
import { PASSWORD_UPDATE_REQUIRED } from '@dossierbase/core';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDossier } from '../../test/entity-factories';
import { buildDefDossier, buildEnvironment, buildUser } from '../../test/factories';
import {
  createTestApp,
  createTestDatabase,
  type TestApp,
  TestClient,
  type TestDatabase,
  testConfig,
} from '../../test/test-app';
import { buildApp } from '../app';
import { attachRealtime } from '../realtime/socket';
import { createSecretToken } from './secret-tokens';
import { ACCESS_COOKIE } from './session';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function expectPasswordUpdateRequired(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(403);
  expect(response.json(), what).toEqual({ message: PASSWORD_UPDATE_REQUIRED });
}

/** An environment admin of an environment with one entity and one dossier, signed in with a login key. */
async function keyLogin() {
  const user = await buildUser(t.db);
  const environment = await buildEnvironment(t.db, {
    members: [{ user, credentials: ['environment-admin'] }],
  });
  const entity = await buildDefDossier(t.db, environment.id);
  const dossierId = await buildDossier(t.db, entity, 'Dossier one');
  const key = await createSecretToken(t.db, 'login_key', user.id, 3600);
  const client = t.client();
  const signedIn = await client.post('/api/key_login_check', { username: user.username, key });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  expect(signedIn.json().re_pwd).toBe(true);
  return { user, environment, entity, dossierId, client };
}

/** Calls of every way a route reads the signed-in user: alone, with an environment, for an entity. */
function everydayCalls(s: Awaited<ReturnType<typeof keyLogin>>) {
  const { client, environment, entity, dossierId } = s;
  return {
    'environment list': () => client.get('/api/environment'),
    environment: () => client.get(`/api/environment/${environment.id}`),
    'dossier list': () =>
      client.get(`/api/contentdossier?environment=${environment.id}&defDossier=${entity.id}`),
    dossier: () => client.get(`/api/contentdossier/${dossierId}`),
    'dossier create': () => client.post('/api/contentdossier', { defDossier: entity.id, values: {} }),
    'profile change': () => client.patch('/api/user/profile', { first_name: 'Changed' }),
  } satisfies Record<string, () => Promise<LightMyRequestResponse>>;
}

describe('the forced password change after a key login', () => {
  test('every call but the change answers 403 until the password is replaced, then all are served', async () => {
    const s = await keyLogin();
    const calls = everydayCalls(s);
    for (const [what, call] of Object.entries(calls)) expectPasswordUpdateRequired(await call(), what);
    // Refused calls changed nothing.
    const dossiers = await t.db
      .selectFrom('content_dossier')
      .select('id')
      .where('def_dossier_id', '=', s.entity.id)
      .execute();
    expect(dossiers).toHaveLength(1);
    const row = await t.db
      .selectFrom('app_user')
      .select(['first_name', 'force_password_update'])
      .where('id', '=', s.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: 'Test', force_password_update: true });

    // What the client needs to show and submit the form is served.
    const profile = await s.client.get('/api/user/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ id: s.user.id, re_pwd: true });
    expect((await s.client.get('/api/ttl_token')).statusCode).toBe(200);
    expect((await s.client.get('/api/config')).statusCode).toBe(200);

    const changed = await s.client.patch('/api/user/change_password', { password: 'chosen by myself' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().re_pwd).toBe(false);

    expect((await calls['environment list']()).statusCode).toBe(200);
    expect((await calls.environment()).statusCode).toBe(200);
    expect((await calls['dossier list']()).statusCode).toBe(200);
    expect((await calls.dossier()).statusCode).toBe(200);
    expect((await calls['dossier create']()).statusCode).toBe(201);
    expect((await calls['profile change']()).statusCode).toBe(200);
  });

  test('the flag set by a key login elsewhere holds for sessions already open', async () => {
    const user = await buildUser(t.db);
    const environment = await buildEnvironment(t.db, { members: [{ user }] });
    const open = await t.client().login(user.username, user.password);
    expect((await open.get(`/api/environment/${environment.id}`)).statusCode).toBe(200);

    const key = await createSecretToken(t.db, 'login_key', user.id, 3600);
    const keyed = await t.client().post('/api/key_login_check', { username: user.username, key });
    expect(keyed.statusCode).toBe(200);
    expectPasswordUpdateRequired(await open.get(`/api/environment/${environment.id}`), 'open session');
  });

  test('signing out and renewing the session stay possible', async () => {
    const s = await keyLogin();
    expect((await s.client.post('/api/refresh_token')).statusCode).toBe(200);
    expectPasswordUpdateRequired(await s.client.get('/api/environment'), 'after renewal');
    expect((await s.client.post('/api/logout_cookie')).statusCode).toBe(200);
    expect((await s.client.get('/api/environment')).statusCode).toBe(401);
  });
});

describe('live updates during the forced change', () => {
  // attachRealtime adds hooks, so it runs before ready(): an app of its own.
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({
      config: testConfig(),
      db: database.db,
      jwtSecret: new TextEncoder().encode('test-secret-of-enough-length!!'),
    });
    await attachRealtime(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  test('joining an environment room is refused until the password is replaced', async () => {
    const client = new TestClient(app);
    const sockets: Socket[] = [];
    const open = async () => {
      const socket = connect(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { cookie: `${ACCESS_COOKIE}=${client.cookies.get(ACCESS_COOKIE)}` },
      });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return (payload: unknown) => socket.timeout(5000).emitWithAck('join', payload);
    };
    try {
      const user = await buildUser(database.db);
      const environment = await buildEnvironment(database.db, { members: [{ user }] });
      const key = await createSecretToken(database.db, 'login_key', user.id, 3600);
      const signedIn = await client.post('/api/key_login_check', { username: user.username, key });
      expect(signedIn.statusCode).toBe(200);

      const join = await open();
      expect(await join({ environment: environment.id })).toEqual({
        ok: false,
        message: PASSWORD_UPDATE_REQUIRED,
      });
      const changed = await client.patch('/api/user/change_password', { password: 'chosen by myself' });
      expect(changed.statusCode).toBe(200);
      // The change ended the key login's session; a socket of the new one may join.
      const joinAgain = await open();
      expect(await joinAgain({ environment: environment.id })).toEqual({ ok: true });
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
  });
});
