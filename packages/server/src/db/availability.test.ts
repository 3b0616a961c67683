import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { SERVICE_MESSAGES } from '@dossierbase/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, DEFAULT_PASSWORD } from '../../test/factories';
import { freePort } from '../../test/free-port';
import { onPostgresServer, TestClient, testConfig, testPostgresUrl } from '../../test/test-app';
import { buildApp } from '../app';
import { isDatabaseUnavailable } from './availability';
import { type Db, dropSchema, migrate, openDatabase } from './database';

describe('isDatabaseUnavailable', () => {
  it('tells connection failures from request errors', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(isDatabaseUnavailable(coded('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(coded('57P01'))).toBe(true); // terminated by administrator
    expect(isDatabaseUnavailable(coded('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: coded('ECONNRESET') }))).toBe(true);
    expect(isDatabaseUnavailable(coded('23505'))).toBe(false); // unique violation
    expect(isDatabaseUnavailable(coded('22P02'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

/** A TCP relay in front of PostgreSQL that a test can cut (an outage) and open again. */
class CuttableRelay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly upstreams = new Set<net.Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      this.upstreams.add(upstream);
      upstream.on('close', () => this.upstreams.delete(upstream));
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
  }

  upstreamPorts(): number[] {
    return [...this.upstreams].map((socket) => socket.localPort).filter((port) => port !== undefined);
  }

  /** Every open connection is cut and new ones are refused, as when the database server stops. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

describe.runIf(onPostgresServer())('the server survives its database', () => {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const target = new URL(testPostgresUrl());
  let relay: CuttableRelay;
  let setupDb: Db;
  let db: Db;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const lost: Error[] = [];

  beforeAll(async () => {
    setupDb = await openDatabase({ databaseUrl: testPostgresUrl(), databaseSchema: schema, dataDir: '' });
    await migrate(setupDb);
    relay = new CuttableRelay(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
    await relay.open();
    const relayed = new URL(testPostgresUrl());
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    db = await openDatabase({ databaseUrl: relayed.href, databaseSchema: schema, dataDir: '' }, (error) =>
      lost.push(error),
    );
    app = await buildApp({
      config: testConfig({ databaseUrl: relayed.href }),
      db,
      jwtSecret: new TextEncoder().encode('test-secret-of-enough-length!!'),
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await relay?.cut();
    await dropSchema(setupDb, schema);
    await setupDb.destroy();
  });

  async function signedIn(): Promise<TestClient> {
    const user = await buildUser(setupDb);
    return new TestClient(app).login(user.username, DEFAULT_PASSWORD);
  }

  it('replaces connections that PostgreSQL ends, and keeps serving', async () => {
    const client = await signedIn();
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
    // the server's own backends: those whose client port is one the relay connected from
    const ports = relay.upstreamPorts();
    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity where client_port = any(${ports})
    `.execute(setupDb);
    expect(rows.length).toBeGreaterThan(0);
    // the idle connections' 'error' events arrive and are heard, not thrown
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await client.get('/api/user/profile')).statusCode);
    // at most the request that met a dying connection fails, with 503; then every one is served
    expect(answers.slice(1)).toEqual([200, 200, 200, 200]);
    expect([200, 503]).toContain(answers[0]);
  });

  it('drops a connection whose backend was terminated mid-query, so the next request gets a sound one', async () => {
    const sleeping = sql`select pg_sleep(5)`.execute(db).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'select pg_sleep(5)%' and pid <> pg_backend_pid()`.execute(
      setupDb,
    );
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);
    // with max 20 connections and nothing else running, the next statements take the idle ones first;
    // whichever comes back, none may be the broken one
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        sql`select 1 as one`.execute(db).then(
          () => 'ok',
          (error: Error) => error.message,
        ),
      ),
    );
    expect(results.filter((result) => result !== 'ok')).toEqual([]);
  });

  it('answers 503 during an outage, says so on /api/health, and recovers without a restart', async () => {
    const client = await signedIn();
    expect((await client.get('/api/health')).json()).toMatchObject({ status: 'ok', database: 'ok' });

    await relay.cut();
    const during = await client.get('/api/user/profile');
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({ message: SERVICE_MESSAGES.databaseUnavailable });
    expect(during.headers['retry-after']).toBe('5');
    expect(during.body).not.toMatch(/ECONN|terminated|postgres/i);
    const health = await client.get('/api/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    // a write is refused as a whole, not half done
    const write = await client.post('/api/login_check', { username: 'nobody', password: 'wrong password' });
    expect(write.statusCode).toBe(503);

    await relay.open();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
      status = (await client.get('/api/user/profile')).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect((await client.get('/api/health')).statusCode).toBe(200);
    expect(lost.length).toBeGreaterThan(0);
  });
});
