// Pieces shared by the benches (faults.ts, load.ts, list.ts, embedded.ts, profile.ts, stages.ts):
// the server as a child process started as `npm start` starts it or the app in this process, signing
// in, the demo's ids, the requests (a) and (c) of list.ts, and small figures helpers.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { sql } from 'kysely';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../packages/server/src/app';
import { hashPassword } from '../packages/server/src/auth/passwords';
import { loadConfig } from '../packages/server/src/config';
import { type Db, migrate, openDatabase } from '../packages/server/src/db/database';
import { visibleItems } from '../packages/server/src/policy/display-item';
import { openEnvironment } from '../packages/server/src/policy/environment';
import { type Column, columnOf } from '../packages/server/src/query/compile/columns';
import { parseListParams } from '../packages/server/src/query/list-query';
import { FILTER_VIEWS } from '../packages/server/src/resources/content-dossier-list/service';
import { freePort } from '../packages/server/test/free-port';
// @ts-expect-error: a plain .mjs module of the start script, without types
import { serverNodeArgs } from '../scripts/server-node-args.mjs';
import { BENCH_SCHEMA, BENCH_URL, type BenchCase, benchCase } from './generate';

export const repoRoot = path.resolve(import.meta.dirname, '..');
export const ADMIN_PASSWORD = 'bench admin password of some length';
export const DEMO_PASSWORD = 'bench demo password of some length';
export const JWT_SECRET = 'bench-secret-of-enough-length!!';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

export const ms = (n: number) => `${n.toFixed(1)} ms`;

/** Runs `run` `times` times one after the other; p50 and p95 of the durations (ms). */
export async function timed(times: number, run: () => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** Waits until the server answers `path` with 2xx, looking every `intervalMs` (about a minute at most by default). */
export async function waitForServer(
  address: string,
  {
    path = '/api/config',
    intervalMs = 200,
    timeoutMs = 60_000,
    alive = () => true,
  }: { path?: string; intervalMs?: number; timeoutMs?: number; alive?: () => boolean } = {},
) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (!alive()) throw new Error('the server stopped while starting');
    try {
      const response = await fetch(`${address}${path}`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error('the server did not start');
}

export interface ServerProcess {
  child: ChildProcess;
  address: string;
  /** the last lines the server wrote (stdout and stderr), to show why it stopped */
  tail: string[];
  /** lines the server logged at level error or fatal (pino level >= 50) */
  errorLines: string[];
  /** resolves with the exit code or signal when the process ends */
  exited: Promise<string>;
  alive(): boolean;
}

/**
 * Starts packages/server/src/main.ts (or `entry`) in a process of its own with the node arguments of
 * `npm start` (scripts/server-node-args.mjs: a 192 MB old generation) and waits until it answers.
 * `env` adds to (and overrides) the defaults: loopback, a fixed JWT secret, no web client.
 */
export async function startServer(
  env: Record<string, string>,
  options: { quietLog?: boolean; entry?: string } = {},
) {
  const server = await spawnServer(env, options);
  const { child, tail, address } = server;
  const started = performance.now();
  while (performance.now() - started < 120_000) {
    if (!server.alive()) throw new Error(`the server stopped while starting:\n${tail.join('\n')}`);
    try {
      if ((await fetch(`${address}/api/config`)).ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start within 120 s');
}

/** The server's process as startServer starts it (or another `entry` with its arguments), without waiting for it to answer. */
export async function spawnServer(
  env: Record<string, string>,
  { quietLog = true, entry = path.join(repoRoot, 'packages/server/src/main.ts') } = {},
) {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serverNodeArgs, entry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      WEB_DIST: '',
      ADMIN_PASSWORD,
      DEMO_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const errorLines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      if (!quietLog) console.log(`  [server] ${line}`);
      if (/"level":(5|6)\d/.test(line)) errorLines.push(line);
      tail.push(line);
      if (tail.length > 80) tail.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  const server: ServerProcess = {
    child,
    address,
    tail,
    errorLines,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  return server;
}

/** Stops the server as an operator would (SIGTERM: it closes its database) and waits for it. */
export async function stopServer(server: ServerProcess) {
  if (!server.alive()) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  await server.exited;
  clearTimeout(timer);
}

/** Signs in over HTTP; the headers every later call sends (session cookies and the CSRF header). */
export async function signIn(address: string, username: string, password: string) {
  const response = await fetch(`${address}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${username}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, [CSRF_HEADER]: CSRF_VALUE, 'content-type': 'application/json' };
}

/**
 * The timed client: node:http over one kept-alive connection, as the load clients of list.ts's (d)
 * (fetch, from undici, spends more of the bench process's CPU per request). `send(url)` GETs,
 * `send(url, body)` POSTs the JSON `body`; a 2xx answer resolves, any other rejects with it.
 */
export function keptAliveClient(headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (url: string, body?: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        url,
        body === undefined
          ? { agent, headers }
          : { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            (response.statusCode ?? 500) < 300
              ? resolve()
              : reject(new Error(`${url}: ${response.statusCode} ${Buffer.concat(chunks).toString()}`)),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/** Resident memory of a process now, from /proc (bytes); 0 once it has ended. */
export function residentBytes(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Resident memory of a process now (VmRSS) and at its peak (VmHWM), from /proc (bytes); 0 once it has ended. */
export function serverMemory(server: { pid?: number }): { rss: number; peak: number } {
  let status: string;
  try {
    status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  } catch {
    return { rss: 0, peak: 0 };
  }
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * A process's name and CPU seconds from /proc/<pid>/stat: its own (user + system) and those of the
 * children it has reaped (cutime, cstime); null once it has ended. Times are in USER_HZ (100 on Linux).
 */
function processTimes(
  pid: number | string | undefined,
): { name: string; own: number; reaped: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    own: (Number(fields[11]) + Number(fields[12])) / 100,
    reaped: (Number(fields[13]) + Number(fields[14])) / 100,
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc; 0 once it has ended. */
export const cpuSeconds = (pid: number | undefined): number => processTimes(pid)?.own ?? 0;

/**
 * CPU seconds (user + system) used so far by all PostgreSQL processes on this machine, with the
 * children their postmaster has reaped: parallel workers and autovacuum workers that exit during a
 * phase would otherwise take their time with them and make its figure too low.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const times = processTimes(pid);
    if (times?.name === 'postgres') total += times.own + times.reaped;
  }
  return total;
}

/** What bench/load-clients.mjs counted: requests answered 200 and not, per second, its own CPU. */
export interface LoadResult {
  done: number;
  failed: number;
  perSecond: number[];
  cpuSeconds: number;
}

/**
 * `concurrency` clients asking `url` (with `cookie`) for `seconds`, in a process of their own
 * (bench/load-clients.mjs): a load generator must not share the server's event loop.
 */
export function loadClients(
  url: string,
  cookie: string,
  seconds: number,
  concurrency = 10,
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(import.meta.dirname, 'load-clients.mjs')],
      {
        env: {
          ...process.env,
          URL: url,
          COOKIE: cookie,
          CONCURRENCY: String(concurrency),
          SECONDS: String(seconds),
          CSRF_HEADER,
          CSRF_VALUE,
        },
      },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

/** The ids of the demo's Case entity (seed.ts, seed-records.ts) that the benches write through; data
 * fields are named as sanitiseFieldName stores them (Case_status). */
export interface DemoCase {
  environmentId: number;
  entityId: number;
  caseworkerRoleId: number;
  /** show/edit display item ids, the keys of a create or edit body */
  items: { title: number; status: number; amount: number; due: number; description: number; client: number };
  /** data-field ids, the keys of content_dossier.values */
  fields: { number: number; title: number; status: number; amount: number; due: number; description: number };
  /** list display item ids, for filters and sorts of the list call */
  listItems: { status: number; due: number };
  /** the forward link Case -> Client (content_link.link_id) */
  linkId: number;
  statusOptions: number[];
  clientIds: number[];
}

export async function demoCase(db: Db): Promise<DemoCase> {
  const environment = await db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  const entities = await db
    .selectFrom('def_dossier')
    .select(['id', 'translations'])
    .where('environment_id', '=', environment.id)
    .execute();
  const entityNamed = (name: string) => {
    const found = entities.find((e) => e.translations.some((t) => t.name_singular === name));
    if (!found) throw new Error(`demo entity ${name} missing`);
    return found.id;
  };
  const entityId = entityNamed('Case');
  const clientEntityId = entityNamed('Client');
  const rows = await db
    .selectFrom('display_item as i')
    .leftJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
    .leftJoin('def_dossier_link as l', 'l.id', 'i.def_dossier_link_id')
    .select([
      'i.id',
      'i.view',
      'd.id as fieldId',
      'd.name as fieldName',
      'l.id as linkId',
      'l.name as linkName',
    ])
    .where('i.def_dossier_id', '=', entityId)
    .execute();
  const item = (view: string, name: string) => {
    const row = rows.find((r) => r.view === view && (r.fieldName === name || r.linkName === name));
    if (!row) throw new Error(`demo display item ${view} ${name} missing`);
    return row;
  };
  const edit = (name: string) => item('show/edit', name).id;
  const field = (name: string) => item('show/edit', name).fieldId as number;
  const options = await db
    .selectFrom('def_field_list')
    .innerJoin('def_dossier_def_field as d', 'd.def_field_id', 'def_field_list.def_field_id')
    .select('def_field_list.id')
    .where('d.id', '=', field('Case_status'))
    .orderBy('def_field_list.rank')
    .execute();
  const clients = await db
    .selectFrom('content_dossier')
    .select('id')
    .where('def_dossier_id', '=', clientEntityId)
    .orderBy('id')
    .execute();
  const role = await db
    .selectFrom('role')
    .select('id')
    .where('environment_id', '=', environment.id)
    .where('name', '=', 'Caseworker')
    .executeTakeFirstOrThrow();
  return {
    environmentId: environment.id,
    entityId,
    caseworkerRoleId: role.id,
    items: {
      title: edit('Title'),
      status: edit('Case_status'),
      amount: edit('Amount'),
      due: edit('Due_date'),
      description: edit('Description'),
      client: edit('Client'),
    },
    fields: {
      number: field('Case_number'),
      title: field('Title'),
      status: field('Case_status'),
      amount: field('Amount'),
      due: field('Due_date'),
      description: field('Description'),
    },
    listItems: { status: item('list', 'Case_status').id, due: item('list', 'Due_date').id },
    linkId: item('show/edit', 'Client').linkId as number,
    statusOptions: options.map((o) => o.id),
    clientIds: clients.map((c) => Number(c.id)),
  };
}

/** The status of an answer, or the kind of failure when there was none (refused, reset, timeout). */
export function failureLabel(error: unknown): string {
  const cause = (error as { cause?: { code?: string; name?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'timeout';
  if (cause?.code === 'ECONNREFUSED') return 'refused';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'reset';
  return cause?.code ?? (error as Error).name ?? 'error';
}

/** A user with a password who is environment admin of the environment (list.ts, embedded.ts). */
export function createEnvironmentAdmin(db: Db, environmentId: number, username: string, password: string) {
  return createMember(db, environmentId, username, password, { credentials: ['environment-admin'] });
}

/**
 * The app on the bench schema in this process (profile.ts, stages.ts), with a new environment admin
 * of the bench case; `signIn` answers their session cookie (call it once the app's hooks are added:
 * the first request readies the app).
 */
export async function benchAppInProcess(usernamePrefix: string) {
  const config = {
    ...loadConfig({}),
    databaseUrl: BENCH_URL,
    databaseSchema: BENCH_SCHEMA,
    logLevel: 'silent',
    webDist: null,
  };
  const db = await openDatabase(config);
  await migrate(db);
  const bench = await benchCase(db);
  const username = `${usernamePrefix}_${Date.now()}`;
  const password = 'bench password of some length';
  await createEnvironmentAdmin(db, bench.environmentId, username, password);
  const app = await buildApp({ config, db, jwtSecret: new TextEncoder().encode(JWT_SECRET) });
  const signIn = async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/login_check',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { username, password },
    });
    return login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  };
  return { db, bench, app, signIn };
}

/** A user with a password, member of the environment with these credentials and roles. */
export async function createMember(
  db: Db,
  environmentId: number,
  username: string,
  password: string,
  { credentials = [], roleIds = [] }: { credentials?: string[]; roleIds?: number[] } = {},
) {
  const admin = await db
    .insertInto('app_user')
    .values({
      username,
      email: null,
      password_hash: await hashPassword(password),
      first_name: 'Bench',
      last_name: username,
      roles: ['ROLE_USER'],
      locale: null,
      private_settings: {},
      otp_secret: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('environment_user')
    .values({
      environment_id: environmentId,
      user_id: admin.id,
      credentials,
      role_ids: roleIds,
    })
    .execute();
  return admin;
}

/**
 * The query of list.ts's (a): list 50 of the bench Case entity with a status option filter and a
 * price range 1000-5000, sorted by due date, newest first.
 */
export function listFilterA(bench: BenchCase): Record<string, string> {
  return {
    defDossier: String(bench.entityId),
    environment: String(bench.environmentId),
    limit: '50',
    page: '0',
    [bench.listItem('status')]: String(bench.statusOption),
    [`${bench.listItem('price')}_min`]: '1000',
    [`${bench.listItem('price')}_max`]: '5000',
    'sort[]': String(bench.listItem('due')),
    'sortOrder[]': 'DESC',
  };
}

/** The parsed list parameters of query (a) for `user`, and the filterable columns of the bench entity. */
export async function listParamsOfA(db: Db, bench: BenchCase, user: Parameters<typeof openEnvironment>[1]) {
  const access = await openEnvironment(db, user, bench.environmentId);
  const visible = await visibleItems(db, access, bench.entityId, FILTER_VIEWS);
  const columns = new Map<number, Column>();
  for (const v of visible) {
    const column = columnOf(v);
    if (column) columns.set(v.item.id, column);
  }
  const { params, errors } = parseListParams(listFilterA(bench), {
    defDossierId: bench.entityId,
    environmentId: bench.environmentId,
    filterable: columns,
    embedded: null,
    userId: user.id,
  });
  if (Object.keys(errors).length) throw new Error(JSON.stringify(errors));
  return { params, columns };
}

/** The planning time EXPLAIN (ANALYZE) printed, in ms. */
export function planningTimes(rows: { 'QUERY PLAN': string }[]): number {
  const line = rows.map((r) => r['QUERY PLAN']).find((text) => text.startsWith('Planning Time'));
  return Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? Number.NaN);
}

/**
 * Waits until the entity's projection is ready (query/projection.ts: the first list request starts
 * its build on a large entity), at most three minutes.
 */
export async function projectionReady(db: Db, entityId: number) {
  for (let waited = 0; waited < 180_000; waited += 500) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_class
      where relnamespace = current_schema()::regnamespace and left(relname, ${`cdp_${entityId}_`.length}) = ${`cdp_${entityId}_`}
        and obj_description(oid, 'pg_class') = 'ready'`.execute(db);
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the projection of the entity was not built in three minutes');
}

/**
 * Waits until no CREATE INDEX runs in the database and no other statement either (a background count,
 * an index built by use): two quiet looks half a second apart.
 */
export async function indexBuildsDone(db: Db) {
  for (let quiet = 0; quiet < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { rows } = await sql<{ n: number }>`select
      (select count(*) from pg_stat_progress_create_index)::int
      + (select count(*) from pg_stat_activity where state = 'active' and backend_type = 'client backend'
           and datname = current_database() and pid <> pg_backend_pid())::int as n`.execute(db);
    quiet = rows[0].n === 0 ? quiet + 1 : 0;
  }
}

/** The body of list.ts's (c): POST /api/contentdossier, a bench case with title, price, due date and status. */
export function createBodyC(bench: BenchCase): string {
  return JSON.stringify({
    defDossier: bench.entityId,
    values: {
      [bench.editItem('title')]: 'Bench created',
      [bench.editItem('price')]: '123,45',
      [bench.editItem('due')]: '2026-05-01',
      [bench.editItem('status')]: bench.statusOption,
    },
  });
}

/** Debian's Chromium, headless, for the benchmarks that draw pages (never a downloaded browser). */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}

/** Signs in through the login form of the page's server and waits until the page has left it. */
export async function signInInBrowser(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * The database as a product's is between bulk loads: its dossier tables and the entities'
 * projections vacuumed and analysed, and no autovacuum worker at work. Measured without this, the
 * 600 new tables of tenants.ts were vacuumed by autovacuum during the second list.ts and slowed
 * everything in it, raw SQL included ((k) raw 530 → 660 ms, create p95 5.9 → 13.2 ms). And where
 * autovacuum is off (as on the cluster of the machine of 1 December 2026), the creates of earlier
 * runs are never vacuumed: index-only scans of the projection read the heap for each of them (17,765
 * heap fetches in (b first)'s first shape after seven list.ts runs, 176-196 ms against 76-102).
 */
export async function settle(db: Db) {
  const started = performance.now();
  const projections = await sql<{ name: string }>`select relname as name from pg_class
    where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname like 'cdp\\_%'`.execute(
    db,
  );
  for (const table of [
    'content_dossier',
    'content_link',
    'dossier_log',
    ...projections.rows.map((r) => r.name),
  ])
    await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where backend_type = 'autovacuum worker'`.execute(db);
    quiet = rows[0].n === 0 ? quiet + 1 : 0;
  }
  console.log(
    `vacuumed, analysed and no autovacuum at work (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}
