import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { type Db, dropSchema, migrate, openDatabase } from '../src/db/database';
import type { UserRow } from '../src/db/schema';
import { indexJobsIdle } from '../src/query/index-jobs';
import { buildUser, type UserOverrides } from './factories';
import { startSmtp, type TestSmtp } from './smtp';
import { cloneName, databaseUrl, onServer, TEMPLATE_SCHEMA } from './template-database';

const SHARED_POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

type TestDatabaseKind = 'embedded' | 'postgres' | 'pglite';

/**
 * Which database this test process runs on, set by the vitest project in TEST_DB: the embedded
 * PostgreSQL of npm start (one cluster per run), the shared PostgreSQL server, or in-memory PGlite.
 */
export const testDatabaseKind = (): TestDatabaseKind =>
  process.env.TEST_DB === 'postgres' || process.env.TEST_DB === 'pglite' ? process.env.TEST_DB : 'embedded';

/** Whether this run's database is a PostgreSQL server (many connections), not the in-process PGlite. */
export const onPostgresServer = () => testDatabaseKind() !== 'pglite';

/** A value the project's global set-up provides; none outside a vitest worker (a child process). */
function provided<K extends 'pgliteSnapshot' | 'embeddedPostgresUrl' | 'templateDatabase'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

/**
 * The connection string of this run's PostgreSQL server: the embedded cluster (a child process of a
 * test gets it in TEST_EMBEDDED_URL) or the shared server.
 */
export function testPostgresUrl(): string {
  if (testDatabaseKind() === 'postgres') return SHARED_POSTGRES_URL;
  const url = process.env.TEST_EMBEDDED_URL ?? provided('embeddedPostgresUrl');
  if (!url) throw new Error('No embedded PostgreSQL in this process: run it in the server-embedded project');
  return url;
}

export interface TestDatabase {
  db: Db;
  kind: TestDatabaseKind;
  /** on a PostgreSQL server: its connection string and the schema of this database (for child processes) */
  url?: string;
  schema?: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database: on a PostgreSQL server a clone of the run's migrated template, its
 * schema renamed to a name of its own (the Redis adapter's channels, say, are named after it), or a
 * schema of its own migrated here where there is no template (a test's child process); or in-memory
 * PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const kind = testDatabaseKind();
  const template = provided('templateDatabase');
  if (kind !== 'pglite' && template) {
    const serverUrl = testPostgresUrl();
    const name = await takeClone(serverUrl, template);
    const url = databaseUrl(serverUrl, name);
    const db = await openDatabase({ databaseUrl: url, databaseSchema: name, dataDir: '' });
    return {
      db,
      kind,
      url,
      schema: name,
      async close() {
        await db.destroy();
        // dropped while the next file runs; what a worker leaves behind, the run's teardown drops
        void onServer(serverUrl, `drop database if exists ${name} with (force)`).catch(() => {});
      },
    };
  }
  if (kind !== 'pglite') {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const db = await openDatabase({ databaseUrl: testPostgresUrl(), databaseSchema: schema, dataDir: '' });
    await migrate(db);
    return {
      db,
      kind,
      url: testPostgresUrl(),
      schema,
      async close() {
        await dropSchema(db, schema);
        await db.destroy();
      },
    };
  }
  // Every file starts from the migrated snapshot made once per run (test/pglite-snapshot.ts):
  // migrating a fresh PGlite took about 5 s of each file's time. migrate() then finds nothing to do.
  const snapshot = provided('pgliteSnapshot');
  const db = await openDatabase({
    databaseUrl: null,
    databaseSchema: null,
    dataDir: 'memory://',
    pgliteSnapshot: snapshot ? new Blob([await readFile(snapshot)]) : undefined,
  });
  await migrate(db);
  return { db, kind, close: () => db.destroy() };
}

/**
 * A clone of the run's template for this file, its schema renamed to the clone's own name (the Redis
 * adapter's channels, say, are named after it). The worker clones the next file's database while this
 * file runs: a clone took about 0.25 s of each of the suites' 300 files.
 */
let nextClone: { template: string; name: Promise<string> } | null = null;

async function takeClone(serverUrl: string, template: string): Promise<string> {
  const prefetched = nextClone?.template === template ? nextClone.name : null;
  nextClone = { template, name: cloneTemplate(serverUrl, template) };
  // a prefetch that failed (the server was busy, say) is not this file's failure: it clones anew
  nextClone.name.catch(() => {});
  return (await prefetched?.catch(() => null)) ?? (await cloneTemplate(serverUrl, template));
}

async function cloneTemplate(serverUrl: string, template: string): Promise<string> {
  const name = cloneName(template);
  await onServer(serverUrl, `create database ${name} template ${template}`);
  await onServer(databaseUrl(serverUrl, name), `alter schema ${TEMPLATE_SCHEMA} rename to ${name}`);
  return name;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    dataDir: 'memory://',
    logLevel: 'silent',
    webDist: null,
    publicUrl: 'http://localhost:3000',
    validateResponses: true,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  client(): TestClient;
  /** A new user, signed in from an address of its own (so rate limits of one test never hit another). */
  signIn(overrides?: UserOverrides): Promise<{ user: UserRow & { password: string }; client: TestClient }>;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  /** work that must happen before ready(), as attachRealtime's hooks */
  { beforeReady }: { beforeReady?: (app: FastifyInstance) => Promise<void> } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig(overrides);
  let signIns = 0;
  const app = await buildApp({
    config,
    db: database.db,
    jwtSecret: new TextEncoder().encode('test-secret-of-enough-length!!'),
  });
  await beforeReady?.(app);
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    client: () => new TestClient(app),
    async signIn(overrides = {}) {
      const user = await buildUser(database.db, overrides);
      const client = new TestClient(app);
      signIns += 1;
      const response = await client.request({
        method: 'POST',
        url: '/api/login_check',
        payload: { username: user.username, password: user.password },
        remoteAddress: `10.9.${Math.floor(signIns / 250)}.${(signIns % 250) + 1}`,
      });
      if (response.statusCode !== 200)
        throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
      return { user, client };
    },
    async close() {
      await app.close();
      // Background index work must finish before its database goes away.
      await indexJobsIdle(database.db);
      await database.close();
    },
  };
}

export type MailTestApp = TestApp & { smtp: TestSmtp };

/** A test app that sends its mail to a real SMTP server of its own, which keeps every mail (smtp.messages). */
export async function createTestAppWithMail(overrides: Partial<Config> = {}): Promise<MailTestApp> {
  const smtp = await startSmtp();
  const t = await createTestApp({ ...overrides, smtpUrl: smtp.url });
  return {
    ...t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** Talks to the app through inject like a browser would: keeps cookies and sends the CSRF header. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrf = true;

  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (this.csrf) headers[CSRF_HEADER] = CSRF_VALUE;
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const response = await this.app.inject({ ...options, headers });
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  }

  patch(url: string, payload?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'PATCH', url, payload: payload as InjectOptions['payload'], headers });
  }

  delete(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'DELETE', url, headers });
  }

  async login(username: string, password: string): Promise<this> {
    const response = await this.post('/api/login_check', { username, password });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    return this;
  }
}
