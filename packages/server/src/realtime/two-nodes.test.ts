import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import {
  CSRF_HEADER,
  CSRF_VALUE,
  DOSSIER_EVENTS,
  type DossierEvent,
  type DossierPresence,
  PRESENCE_EVENTS,
} from '@dossierbase/core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildDefDossier, buildEnvironment, buildUser } from '../../test/factories';
import { freePort } from '../../test/free-port';
import { openSocket, type TestSocket } from '../../test/sockets';
import { createTestDatabase, onPostgresServer, type TestDatabase } from '../../test/test-app';
import { ACCESS_COOKIE } from '../auth/session';

// Issue 19, "Done means": two server processes on one PostgreSQL schema and one Redis, each on its own
// port, as two nodes behind a load balancer. A dossier created through one node reaches a client of
// the other through the socket.io Redis adapter; presence and the online count span both nodes.

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const JWT_SECRET = 'two-nodes-secret-of-enough-length!!';

let database: TestDatabase;
const children: ChildProcess[] = [];
const sockets: TestSocket[] = [];

/** main.ts as `npm start` runs it (tsx), on the test's schema, with the Redis adapter. */
async function startNode(schema: string): Promise<string> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'packages/server/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url as string,
        DATABASE_SCHEMA: schema,
        REDIS_URL,
        JWT_SECRET,
        WEB_DIST: '',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const address = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    if (child.exitCode !== null) throw new Error(`node ended: ${output.join('')}`);
    try {
      if ((await fetch(`${address}/api/config`)).ok) return address;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`node did not start: ${output.join('')}`);
}

async function signIn(address: string, user: { username: string; password: string }) {
  const response = await fetch(`${address}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  expect(response.status).toBe(200);
  const cookies = new Map(
    response.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]),
  );
  return {
    token: cookies.get(ACCESS_COOKIE) as string,
    headers: {
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': 'application/json',
      [CSRF_HEADER]: CSRF_VALUE,
    },
  };
}

async function joined(address: string, token: string, environment: number) {
  const s = await openSocket(address, token);
  sockets.push(s);
  expect(await s.ask('join', { environment })).toEqual({ ok: true });
  return s;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  await database?.close();
});

// child processes need a PostgreSQL server (PGlite lives in this process)
test.skipIf(!onPostgresServer())(
  'an event, presence and the online count cross from one server process to another through Redis',
  async () => {
    const { db } = database;
    const writer = await buildUser(db);
    const reader = await buildUser(db);
    const environment = await buildEnvironment(db, {
      members: [
        { user: writer, credentials: ['environment-admin'] },
        { user: reader, credentials: ['environment-admin'] },
      ],
    });
    const entity = await buildDefDossier(db, environment.id, { name: 'Task' });

    const [nodeA, nodeB] = await Promise.all([
      startNode(database.schema as string),
      startNode(database.schema as string),
    ]);
    expect(nodeA).not.toBe(nodeB);
    const writerSession = await signIn(nodeA, writer);
    const readerSession = await signIn(nodeB, reader);
    const onA = await joined(nodeA, writerSession.token, environment.id);
    const onB = await joined(nodeB, readerSession.token, environment.id);

    // a dossier created through node A: the client of node B hears it
    const created = await fetch(`${nodeA}/api/contentdossier`, {
      method: 'POST',
      headers: writerSession.headers,
      body: JSON.stringify({ defDossier: entity.id, values: {} }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(await onB.next<DossierEvent>(DOSSIER_EVENTS.created)).toEqual({
      ids: [id],
      defDossier: entity.id,
      sender: writer.id,
    });

    // both open the dossier, each on their node: each sees the other
    expect(await onA.ask(PRESENCE_EVENTS.open, { dossier: id })).toEqual({ ok: true });
    expect(await onB.ask(PRESENCE_EVENTS.open, { dossier: id })).toEqual({ ok: true });
    for (const s of [onA, onB]) {
      let presence: DossierPresence;
      do presence = await s.next<DossierPresence>(PRESENCE_EVENTS.presence);
      while (presence.viewers.length < 2);
      expect(presence.viewers.map((v) => v.id).sort((a, b) => a - b)).toEqual(
        [writer.id, reader.id].sort((a, b) => a - b),
      );
    }

    // the dashboard's online count (node A) counts the socket of node B too
    const online = await fetch(`${nodeA}/api/environmentadmin/statistics/user_current`, {
      method: 'POST',
      headers: writerSession.headers,
      body: JSON.stringify({ environment: environment.id }),
    });
    expect(online.status).toBe(200);
    expect(await online.json()).toEqual({ online: 2, offline: 0 });
  },
  120_000,
);
