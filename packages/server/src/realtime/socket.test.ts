import type { AddressInfo } from 'node:net';
import { ENVIRONMENT_MESSAGES, FORBIDDEN_MESSAGE } from '@dossierbase/core';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { buildEnvironment, buildUser } from '../../test/factories';
import { createTestDatabase, TestClient, type TestDatabase, testConfig } from '../../test/test-app';
import { buildApp } from '../app';
import { ACCESS_COOKIE } from '../auth/session';
import { environmentRoom } from './rooms';
import { attachRealtime, JOIN_MESSAGES } from './socket';

// attachRealtime adds hooks, so it runs before ready(): this suite builds its own app.
let database: TestDatabase;
let app: FastifyInstance;
let io: Server;
let baseUrl: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    config: testConfig(),
    db: database.db,
    jwtSecret: new TextEncoder().encode('test-secret-of-enough-length!!'),
  });
  io = await attachRealtime(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

async function accessToken(user: { username: string; password: string }): Promise<string> {
  const client = await new TestClient(app).login(user.username, user.password);
  return client.cookies.get(ACCESS_COOKIE)!;
}

function open(cookie?: string): Socket {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: cookie ? { cookie } : {},
  });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

function refused(socket: Socket): Promise<Error> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected without a valid session')));
    socket.once('connect_error', (error) => resolve(error));
  });
}

async function signedInSocket(user: { username: string; password: string }) {
  const socket = open(`other=1; ${ACCESS_COOKIE}=${await accessToken(user)}`);
  await connected(socket);
  return socket;
}

const join = (socket: Socket, payload: unknown) =>
  socket.timeout(5000).emitWithAck('join', payload) as Promise<{ ok: boolean; message?: string }>;

const socketsIn = async (environmentId: number) =>
  (await io.in(environmentRoom(environmentId)).fetchSockets()).length;

describe('socket.io', () => {
  test('a member joins the room of their environment and receives its events', async () => {
    const user = await buildUser(database.db);
    const environment = await buildEnvironment(database.db, { members: [{ user }] });
    const socket = await signedInSocket(user);

    expect(await join(socket, { environment: environment.id })).toEqual({ ok: true });
    expect(await socketsIn(environment.id)).toBe(1);

    const received = new Promise((resolve) => socket.once('dossier:changed', resolve));
    io.to(environmentRoom(environment.id)).emit('dossier:changed', { id: 7 });
    expect(await received).toEqual({ id: 7 });
  });

  test("joining another user's or an inactive environment is refused", async () => {
    const user = await buildUser(database.db);
    const owner = await buildUser(database.db);
    const theirs = await buildEnvironment(database.db, { members: [{ user: owner }] });
    const inactive = await buildEnvironment(database.db, { active: false, members: [{ user }] });
    const socket = await signedInSocket(user);

    // another tenant's environment answers as an unknown one does
    expect(await join(socket, { environment: theirs.id })).toEqual({ ok: false, message: 'Not found' });
    expect(await join(socket, { environment: inactive.id })).toEqual({
      ok: false,
      message: ENVIRONMENT_MESSAGES.inactive,
    });
    expect(await join(socket, { environment: 99999999 })).toEqual({
      ok: false,
      message: 'Not found',
    });
    expect(await socketsIn(theirs.id)).toBe(0);
    expect(await socketsIn(inactive.id)).toBe(0);
  });

  test('an invalid join payload is refused with a fixed message, never a database error', async () => {
    const user = await buildUser(database.db);
    const socket = await signedInSocket(user);
    const payloads = [
      { environment: 'abc' },
      {},
      null,
      'x',
      { environment: -1 },
      { environment: 0 },
      { environment: 1.5 },
      // beyond PostgreSQL's integer: the database answered "value out of range" to the client
      { environment: 9999999999 },
      { environment: 2147483648 },
      { environment: '9999999999' },
      { environment: '0x10' },
      { environment: ' 12' },
      { environment: '1e3' },
      { environment: '1\u0000' },
    ];
    for (const payload of payloads) {
      const answer = await join(socket, payload);
      expect(answer, JSON.stringify(payload)).toEqual({ ok: false, message: JOIN_MESSAGES.invalid });
    }
    // a join with a stray last argument instead of an acknowledgement is ignored; the socket still works
    socket.emit('join', { environment: 9999999999 }, 'not a callback');
    const environment = await buildEnvironment(database.db, { members: [{ user }] });
    expect(await join(socket, { environment: String(environment.id) })).toEqual({ ok: true });
  });

  test('joining a second environment leaves the first room', async () => {
    const user = await buildUser(database.db);
    const first = await buildEnvironment(database.db, { members: [{ user }] });
    const second = await buildEnvironment(database.db, { members: [{ user }] });
    const socket = await signedInSocket(user);
    expect(await join(socket, { environment: first.id })).toEqual({ ok: true });
    expect(await join(socket, { environment: second.id })).toEqual({ ok: true });
    expect(await socketsIn(first.id)).toBe(0);
    expect(await socketsIn(second.id)).toBe(1);
  });

  test('a user deactivated after connecting can no longer join', async () => {
    const user = await buildUser(database.db);
    const environment = await buildEnvironment(database.db, { members: [{ user }] });
    const socket = await signedInSocket(user);
    await database.db.updateTable('app_user').set({ active: false }).where('id', '=', user.id).execute();
    expect(await join(socket, { environment: environment.id })).toEqual({
      ok: false,
      message: 'Not signed in',
    });
  });

  test('a member an admin deactivates or removes leaves the room at once, and cannot join it again', async () => {
    const admin = await buildUser(database.db);
    const deactivated = await buildUser(database.db);
    const removed = await buildUser(database.db);
    const environment = await buildEnvironment(database.db, {
      members: [
        { user: admin, credentials: ['environment-admin'] },
        { user: deactivated },
        { user: removed },
      ],
    });
    const other = await buildEnvironment(database.db, { members: [{ user: deactivated }] });
    const sockets = [
      await signedInSocket(deactivated),
      await signedInSocket(deactivated),
      await signedInSocket(removed),
    ];
    for (const socket of sockets)
      expect(await join(socket, { environment: environment.id })).toEqual({ ok: true });
    const bystander = await signedInSocket(admin);
    expect(await join(bystander, { environment: environment.id })).toEqual({ ok: true });
    expect(await socketsIn(environment.id)).toBe(4);

    const client = await new TestClient(app).login(admin.username, admin.password);
    const members = `/api/environment/${environment.id}/member`;
    expect((await client.patch(`${members}/${deactivated.id}`, { active: false })).statusCode).toBe(200);
    expect(await socketsIn(environment.id)).toBe(2);
    expect((await client.delete(`${members}/${removed.id}`)).statusCode).toBe(204);
    expect(await socketsIn(environment.id)).toBe(1);
    expect((await io.in(environmentRoom(environment.id)).fetchSockets()).map((s) => s.id)).toEqual([
      bystander.id,
    ]);

    expect(await join(sockets[0], { environment: environment.id })).toEqual({
      ok: false,
      message: FORBIDDEN_MESSAGE,
    });
    expect(await join(sockets[2], { environment: environment.id })).toEqual({
      ok: false,
      message: 'Not found',
    });
    // their other environments are theirs still
    expect(await join(sockets[1], { environment: other.id })).toEqual({ ok: true });
  });

  test('after signing out, a socket opened with that session can no longer join', async () => {
    const user = await buildUser(database.db);
    const environment = await buildEnvironment(database.db, { members: [{ user }] });
    const client = await new TestClient(app).login(user.username, user.password);
    const token = client.cookies.get(ACCESS_COOKIE);
    const socket = open(`${ACCESS_COOKIE}=${token}`);
    await connected(socket);
    expect((await client.post('/api/logout_cookie')).statusCode).toBe(200);
    expect(await join(socket, { environment: environment.id })).toEqual({
      ok: false,
      message: 'Not signed in',
    });
    // and a new connection with the ended session's token is refused.
    const again = await refused(open(`${ACCESS_COOKIE}=${token}`));
    expect(again.message).toBe('Not signed in');
  });

  test('signing out everywhere else closes the sockets of the other sessions, not this one', async () => {
    const user = await buildUser(database.db);
    const here = await new TestClient(app).login(user.username, user.password);
    const elsewhere = await signedInSocket(user);
    const own = open(`${ACCESS_COOKIE}=${here.cookies.get(ACCESS_COOKIE)}`);
    await connected(own);
    const closed = new Promise<string>((resolve) =>
      elsewhere.once('disconnect', (reason) => resolve(reason)),
    );
    expect((await here.post('/api/user/session/end_others')).json()).toEqual({ ended: 1 });
    expect(await closed).toBe('io server disconnect');
    expect(own.connected).toBe(true);
  });

  test('without a session cookie, or with a forged one, the connection is refused', async () => {
    const none = await refused(open());
    expect(none.message).toBe('Not signed in');
    const forged = await refused(open(`${ACCESS_COOKIE}=not-a-token`));
    expect(forged.message).toBe('Not signed in');
  });

  test('a cookie that is not valid percent-encoding is refused like a forged one (it ended the process)', async () => {
    for (const value of ['%E0%A4%A', '%ZZ', '%']) {
      const answer = await refused(open(`${ACCESS_COOKIE}=${value}`));
      expect(answer.message, value).toBe('Not signed in');
    }
    // and the server still serves
    const user = await buildUser(database.db);
    expect((await signedInSocket(user)).connected).toBe(true);
  });
});
