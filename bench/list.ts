// Measures the dossier list call on the data of bench/generate.ts. Usage: npx tsx bench/list.ts
// Starts the app in-process on the bench schema, signs in as an admin it creates and drives the
// API with fetch over loopback; the raw SQL of the same query runs directly through pg.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { type Db, migrate, openDatabase } from '../packages/server/src/db/database';
import { visibleItems } from '../packages/server/src/policy/display-item';
import { openEnvironment } from '../packages/server/src/policy/environment';
import { type Column, columnOf } from '../packages/server/src/query/compile/columns';
import { countQuery, filteredQuery, pageQuery } from '../packages/server/src/query/compile/page';
import { parseListParams } from '../packages/server/src/query/list-query';
import { USES_BEFORE_BUILD as PROJECTION_USES_BEFORE_BUILD } from '../packages/server/src/query/projection-query';
import { USES_BEFORE_BUILD } from '../packages/server/src/query/sort-indexes';
import { FILTER_VIEWS } from '../packages/server/src/resources/content-dossier-list/service';
import { freePort } from '../packages/server/test/free-port';
// @ts-expect-error: a plain .mjs module of the start script, without types
import { serverNodeArgs } from '../scripts/server-node-args.mjs';
import { BENCH_SCHEMA, BENCH_URL, benchCase } from './generate';
import {
  createBodyC,
  createEnvironmentAdmin,
  JWT_SECRET,
  listFilterA,
  ms,
  percentile,
  repoRoot,
  serverMemory,
  timed,
  waitForServer,
} from './harness';

const ITERATIONS = 200;
/**
 * Requests behind (a) and (c), the rows tenants.ts compares within 15 %: with 200, the p95s of two
 * runs alone on the same data differed by 14-51 %, as much as the criterion; the p95 of 1,000 is the
 * 50th slowest answer, not the 10th.
 */
const COMPARED_ITERATIONS = 1000;
const COLD_ITERATIONS = 40;
/** untimed requests before a call is measured, after the first ones (see below) */
const STEADY_WARMUP = 200;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 12);
const IDLE_SAMPLES = Number(process.env.BENCH_IDLE_SAMPLES ?? 5);
const CONCURRENCY = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 8;

/**
 * CPU seconds (user + system) used so far by the server process and by all PostgreSQL processes.
 * PostgreSQL's count includes the children its postmaster has reaped (cutime, cstime): parallel
 * workers and autovacuum workers that exit during a phase would otherwise take their time with them
 * and make the phase's figure too low, even negative.
 */
function cpuSeconds(server: ChildProcess): { server: number; postgres: number } {
  const ticks = 100; // USER_HZ, 100 on Linux
  let postgres = 0;
  let own = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const used = (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
    const reaped = (Number(fields[13]) + Number(fields[14])) / ticks; // cutime, cstime
    if (Number(pid) === server.pid) own = used;
    else if (comm === 'postgres') postgres += used + reaped;
  }
  return { server: own, postgres };
}

/** The server's resident memory peak so far, for the progress lines. */
const peakSoFar = (server: ChildProcess) =>
  `server RSS peak ${(serverMemory(server).peak / 2 ** 20).toFixed(0)} MB`;

/**
 * Waits until the entity's projection is ready (query/projection.ts: the first list request starts
 * its build on a large entity), at most three minutes.
 */
async function projectionReady(db: Db, entityId: number) {
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
async function indexBuildsDone(db: Db) {
  for (let quiet = 0; quiet < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { rows } = await sql<{ n: number }>`select
      (select count(*) from pg_stat_progress_create_index)::int
      + (select count(*) from pg_stat_activity where state = 'active' and backend_type = 'client backend'
           and datname = current_database() and pid <> pg_backend_pid())::int as n`.execute(db);
    quiet = rows[0].n === 0 ? quiet + 1 : 0;
  }
}

/**
 * A fixed piece of CPU work (a JavaScript loop), timed at the start and at the end of the run: this
 * machine is shared and its speed moves by tens of percent over hours, so figures of two runs compare
 * only together with this one.
 */
function machineReferenceMs() {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    let x = 0;
    for (let i = 0; i < 100_000_000; i++) x += i % 7;
    if (x < 0) throw new Error('unreachable');
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

async function main() {
  const referenceAtStart = machineReferenceMs();
  const config = {
    ...loadConfig({}),
    databaseUrl: BENCH_URL,
    databaseSchema: BENCH_SCHEMA,
    dataDir: 'memory://',
    logLevel: process.env.BENCH_LOG ?? 'silent',
    webDist: null,
  } as ReturnType<typeof loadConfig>;
  const db = await openDatabase(config);
  // data generated by an older checkout gets the newer migrations, as a deployment would
  await migrate(db);
  const bench = await benchCase(db);
  // the indexes of the projection that filters earn (query/projection-query.ts) are dropped: the
  // cold figures below measure a filter asked for the first time, and then the earning
  const earned = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and indexname like ${`cdpx\\_${bench.entityId}\\_%`}`.execute(db);
  for (const { name } of earned.rows) await sql`drop index ${sql.id(name)}`.execute(db);
  const environment = { id: bench.environmentId };
  const entity = { id: bench.entityId };
  const total = await db
    .selectFrom('content_dossier')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('def_dossier_id', '=', entity.id)
    .executeTakeFirstOrThrow();

  const username = `bench_admin_${Date.now()}`;
  const password = 'bench password of some length';
  const admin = await createEnvironmentAdmin(db, environment.id, username, password);

  // The server runs as `npm start` runs it (scripts/server-node-args.mjs), in a process of its own: its peak resident memory is
  // read from /proc at the end (VmHWM), free of this harness, its pool and its clients.
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [...serverNodeArgs, path.join(repoRoot, 'packages/server/src/main.ts')],
    {
      env: {
        ...process.env,
        DATABASE_URL: BENCH_URL,
        DATABASE_SCHEMA: BENCH_SCHEMA,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        // the default level, as npm start runs it (a log line per request); shown with BENCH_LOG
        LOG_LEVEL: process.env.BENCH_LOG ?? 'info',
        JWT_SECRET,
      },
      stdio: ['ignore', process.env.BENCH_LOG ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  // a run that fails part-way must not leave its server running
  process.on('exit', () => server.kill('SIGTERM'));
  await waitForServer(address);
  const login = await fetch(`${address}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { cookie, [CSRF_HEADER]: CSRF_VALUE };

  const { listItem } = bench;
  const filterA = listFilterA(bench);
  const filterB = {
    ...filterA,
    [`${listItem('price')}_aggregate`]: 'sum',
    [`${listItem('hours')}_aggregate`]: 'avg',
  };
  const urlA = `${address}/api/contentdossier?${new URLSearchParams(filterA)}`;
  const urlB = `${address}/api/contentdossier?${new URLSearchParams(filterB)}`;
  // The timed client: node:http over one kept-alive connection, as the load clients of (d) (fetch, from
  // undici, spends more of the bench process's CPU per request; row (a fetch) shows the difference).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** One request through `agent`: a GET, or with `body` a POST of JSON; a 2xx answer resolves. */
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
  const get = (url: string) => send(url);
  const getWithFetch = async (url: string) => {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };

  let rssMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, serverMemory(server).rss);
  }, 50);

  // warm-up: lets the once-per-process index sync finish, and the sort index that query (a) earns
  // by use (query/sort-indexes.ts) be built, as it would be in the first minutes of real use
  for (let i = 0; i < USES_BEFORE_BUILD + 5; i++) await get(urlA);
  const projectionStart = performance.now();
  await projectionReady(db, bench.entityId);
  console.log(`projection ready (waited ${ms(performance.now() - projectionStart)} after the warm-up)`);
  await indexBuildsDone(db);
  const learnt = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and indexname like 'cdxc\\_%' order by 1`.execute(db);
  console.log(`sort indexes learnt from use: ${learnt.rows.map((r) => r.name).join(', ') || 'none'}`);
  // then the server's steady state: its code compiled by V8's optimising tiers and its pools and
  // caches filled, as in a server that has been answering for a while (measured: (a) right after the
  // 25 requests above answered p95 9.1 ms where (b), the same query run after it, answered 7.0 ms)
  for (let i = 0; i < STEADY_WARMUP; i++) await get(urlA);
  const first = await (await fetch(urlA, { headers })).json();
  if (process.env.BENCH_ANSWER) writeFileSync(process.env.BENCH_ANSWER, JSON.stringify(first));

  const a = await timed(COMPARED_ITERATIONS, () => get(urlA));
  console.log(`(a) done: p50 ${ms(a.p50)} p95 ${ms(a.p95)}, ${peakSoFar(server)}`);
  const aFetch = await timed(ITERATIONS, () => getWithFetch(urlA));
  console.log(`(a fetch) done: p50 ${ms(aFetch.p50)} p95 ${ms(aFetch.p95)}`);
  const b = await timed(ITERATIONS, () => get(urlB));
  console.log(`(b) done: p50 ${ms(b.p50)} p95 ${ms(b.p95)}, ${peakSoFar(server)}`);

  // (k) a count grouped by a list field over the whole entity (no filter): the per-option counters
  const urlK = `${address}/api/contentdossier?${new URLSearchParams({
    defDossier: filterA.defDossier,
    environment: filterA.environment,
    limit: '50',
    [`${listItem('status')}_aggregate`]: 'count',
  })}`;
  const k = await timed(ITERATIONS, () => get(urlK));
  console.log(`(k) done: p50 ${ms(k.p50)} p95 ${ms(k.p95)}, ${peakSoFar(server)}`);

  // (h) People click every few seconds, not in a loop: one request (a) after IDLE_SECONDS without any
  // (longer than pg's default idle timeout of 10 s, which closed the pool's connections).
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const start = performance.now();
    await get(urlA);
    idle.push(performance.now() - start);
  }
  idle.sort((x, y) => x - y);
  console.log(`(h) done: after ${IDLE_SECONDS} s idle: ${idle.map(ms).join(', ')}`);

  // The same with a filter value no request has asked before: the total and the aggregations are
  // counted for real (the cache only helps paging, sorting and repeated views of one filter).
  let fresh = 0;
  const freshUrl = (filter: Record<string, string>) =>
    `${address}/api/contentdossier?${new URLSearchParams({ ...filter, [`${listItem('price')}_min`]: String(1000 + ++fresh / 100) })}`;
  const aCold = await timed(COLD_ITERATIONS, () => get(freshUrl(filterA)));
  console.log(`(a cold) done: p50 ${ms(aCold.p50)} p95 ${ms(aCold.p95)}, ${peakSoFar(server)}`);
  // (b cold): the first request of (b)'s filter with a value never asked; then the few that earn the
  // filter its index of the projection (query/projection-query.ts), built in the background; then
  // COLD_ITERATIONS more, each with a value never asked
  await indexBuildsDone(db); // what (a cold) started in the background
  const bColdFirst = await timed(1, () => get(freshUrl(filterB)));
  const earning: number[] = [];
  for (let i = 1; i < PROJECTION_USES_BEFORE_BUILD; i++)
    earning.push((await timed(1, () => get(freshUrl(filterB)))).p50);
  await indexBuildsDone(db);
  const bCold = await timed(COLD_ITERATIONS, () => get(freshUrl(filterB)));
  console.log(
    `(b cold) done: first ${ms(bColdFirst.p50)}, then ${earning.map(ms).join(', ')}, then p50 ${ms(bCold.p50)} p95 ${ms(bCold.p95)}, ${peakSoFar(server)}`,
  );
  // (b first) filter shapes no request has asked before, each once, with (b)'s two aggregations: the
  // projection is scanned, no index of it serves them yet
  const aggregationsB = {
    [`${listItem('price')}_aggregate`]: 'sum',
    [`${listItem('hours')}_aggregate`]: 'avg',
  };
  const newShapes: Record<string, string>[] = [
    {
      [listItem('status')]: String(bench.statusOption),
      [`${listItem('hours')}_min`]: '100',
      [`${listItem('hours')}_max`]: '300',
    },
    {
      [`${listItem('price')}_min`]: '2000',
      [`${listItem('price')}_max`]: '6000',
      [`${listItem('hours')}_min`]: '250',
    },
    { [`${listItem('hours')}_min`]: '50', [`${listItem('hours')}_max`]: '250' },
  ];
  const bFirst: number[] = [];
  for (const shape of newShapes) {
    const url = `${address}/api/contentdossier?${new URLSearchParams({
      defDossier: filterA.defDossier,
      environment: filterA.environment,
      limit: '50',
      ...shape,
      ...aggregationsB,
    })}`;
    bFirst.push((await timed(1, () => get(url))).p50);
  }
  console.log(`(b first) done: ${bFirst.map(ms).join(', ')}`);

  // SQL statements per list request: the same app in this process, driven through inject, counting
  // every query its pg clients send
  const probeApp = await buildApp({ config, db, jwtSecret: new TextEncoder().encode(JWT_SECRET) });
  let statements = 0;
  const originalQuery = pg.Client.prototype.query;
  const showStatements = process.env.BENCH_STATEMENTS === '1';
  // the statements of the last probe request, with their values, replayed in (e)
  let sent: { text: string; values: unknown[] }[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    const config = args[0] as { text?: string; values?: unknown[] } | string;
    if (typeof config === 'object' && config?.text)
      sent.push({ text: config.text, values: config.values ?? [] });
    else if (typeof config === 'string') sent.push({ text: config, values: (args[1] as unknown[]) ?? [] });
    if (showStatements) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
      console.log(`  statement: ${String(text).replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  const probeUrl = urlA.slice(address.length);
  await probeApp.inject({ url: probeUrl, headers }); // the first request fills the per-node caches
  await new Promise((resolve) => setTimeout(resolve, 1000)); // and starts the exact count in the background
  statements = 0;
  // the fewest statements of one request: none of a background job (a count, an index) among them
  let fewest: typeof sent = [];
  for (let i = 0; i < 20; i++) {
    if (i > 0 && (fewest.length === 0 || sent.length < fewest.length)) fewest = sent;
    sent = [];
    const response = await probeApp.inject({ url: probeUrl, headers });
    if (response.statusCode !== 200) throw new Error(`probe: ${response.statusCode} ${response.body}`);
  }
  pg.Client.prototype.query = originalQuery;
  if (sent.length < fewest.length) fewest = sent;
  const statementsPerRequest = statements / 20;
  // The server's own CPU time per list request (PostgreSQL's not included), through inject: steadier
  // on a shared machine than throughput, which moves with whatever else runs.
  for (let i = 0; i < 100; i++) await probeApp.inject({ url: probeUrl, headers });
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < 300; i++) await probeApp.inject({ url: probeUrl, headers });
  const cpuUsed = process.cpuUsage(cpuBefore);
  const serverCpuPerRequest = (cpuUsed.user + cpuUsed.system) / 1000 / 300;
  await probeApp.close();

  let c: { p50: number; p95: number } | null = null;
  let createNote = '';
  const createBody = () => createBodyC(bench);
  const probe = await fetch(`${address}/api/contentdossier`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: createBody(),
  });
  if (probe.status === 200 || probe.status === 201) {
    // through node:http, as (a)
    for (let i = 0; i < STEADY_WARMUP / 4; i++) await send(`${address}/api/contentdossier`, createBody());
    c = await timed(COMPARED_ITERATIONS, () => send(`${address}/api/contentdossier`, createBody()));
    console.log(`(c) done: p50 ${ms(c.p50)} p95 ${ms(c.p95)}, ${peakSoFar(server)}`);
  } else createNote = `not measured (POST answered ${probe.status})`;

  // (d) 10 clients, in a child process: a load generator must not share the server's event loop
  // (both still share this machine's two cores with PostgreSQL). The first seconds of load after the
  // single-client phases run slower (measured: about 150 requests/s in the first second, rising to
  // the steady rate over 4 to 8 seconds), so a warm-up of
  // WARMUP_SECONDS at the same load comes first; its rate is printed too.
  const runLoad = (seconds: number) =>
    new Promise<{ done: number; failed: number; perSecond: number[]; cpuSeconds: number }>(
      (resolve, reject) => {
        execFile(
          process.execPath,
          [path.join(import.meta.dirname, 'load-clients.mjs')],
          {
            env: {
              ...process.env,
              URL: urlA,
              COOKIE: cookie,
              CONCURRENCY: String(CONCURRENCY),
              SECONDS: String(seconds),
              CSRF_HEADER,
              CSRF_VALUE,
            },
          },
          (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
        );
      },
    );
  const warmup = await runLoad(WARMUP_SECONDS);
  console.log(`(d) warm-up, ${WARMUP_SECONDS} s from idle, per second: ${warmup.perSecond.join(' ')}`);
  const cpuBeforeLoad = cpuSeconds(server);
  const load = await runLoad(SECONDS);
  const cpuAfterLoad = cpuSeconds(server);
  const cpuPerRequest = (seconds: number) => `${((1000 * seconds) / load.done).toFixed(2)} ms`;
  if (warmup.failed || load.failed) throw new Error(`(d): ${warmup.failed + load.failed} requests failed`);
  const done = load.done;
  const rps = done / SECONDS;
  console.log(`(d) done: ${rps.toFixed(1)} requests/s, ${peakSoFar(server)}`);
  console.log(`(d) requests per second, second by second: ${load.perSecond.join(' ')}`);

  // (e) the SQL the server runs for (a): page and count, straight through pg
  const access = await openEnvironment(db, admin, environment.id);
  const visible = await visibleItems(db, access, entity.id, FILTER_VIEWS);
  const columns = new Map<number, Column>();
  for (const v of visible) {
    const column = columnOf(v);
    if (column) columns.set(v.item.id, column);
  }
  const { params, errors } = parseListParams(filterA, {
    defDossierId: entity.id,
    environmentId: environment.id,
    filterable: columns,
    embedded: null,
    userId: admin.id,
  });
  if (Object.keys(errors).length) throw new Error(JSON.stringify(errors));
  const page = pageQuery(db, params).compile();
  const count = countQuery(db, params).compile();
  const client = new pg.Client({ connectionString: BENCH_URL, options: `-c search_path=${BENCH_SCHEMA}` });
  await client.connect();
  const rawPage = await timed(ITERATIONS, async () => {
    await client.query(page.sql, page.parameters as unknown[]);
  });
  // the statements one request (a) sends (the page with the sign-in read it carries), as the server
  // sends them: named prepared statements on a connection with the server's plan settings
  await client.query('set plan_cache_mode = force_custom_plan');
  const replays = fewest.map((statement, n) => ({
    name: `bench_replay_${n}`,
    text: statement.text,
    values: statement.values,
  }));
  const replay = async () => {
    for (const config of replays) await client.query(config);
  };
  const replayed = (await timed(ITERATIONS, replay)).p50;
  // (a), the raw page query and (a)'s own statements in turn, one of each at a time: all timed under
  // the machine of the same moment, where (a) above ran minutes before (e) and this shared machine's
  // speed moves within a run (in one run its fixed loop took 103 ms at the start and 127 ms at the end)
  const inTurn = { a: [] as number[], raw: [] as number[], own: [] as number[] };
  for (let i = 0; i < COMPARED_ITERATIONS / 2; i++) {
    const started = performance.now();
    await get(urlA);
    const afterA = performance.now();
    await client.query(page.sql, page.parameters as unknown[]);
    const afterRaw = performance.now();
    await replay();
    inTurn.a.push(afterA - started);
    inTurn.raw.push(afterRaw - afterA);
    inTurn.own.push(performance.now() - afterRaw);
  }
  for (const samples of Object.values(inTurn)) samples.sort((x, y) => x - y);
  await client.query('reset plan_cache_mode');
  const rawBoth = await timed(ITERATIONS, async () => {
    await Promise.all([
      client.query(page.sql, page.parameters as unknown[]),
      client.query(count.sql, count.parameters as unknown[]),
    ]);
  });
  const rawCount = await timed(ITERATIONS / 4, async () => {
    await client.query(count.sql, count.parameters as unknown[]);
  });
  const capped = db
    .selectFrom(filteredQuery(db, params).select(sql`1`.as('one')).limit(10_001).as('s'))
    .select(sql`count(*)`.as('n'))
    .compile();
  const rawCapped = await timed(ITERATIONS / 4, async () => {
    await client.query(capped.sql, capped.parameters as unknown[]);
  });
  // (k) as raw SQL: the whole entity grouped by the status field, by a scan (no counters)
  const statusColumn = columns.get(listItem('status'));
  if (statusColumn?.kind !== 'field') throw new Error('the bench entity has no status list item');
  const grouped = `select ${statusColumn.expression} as option, count(*) from content_dossier
    where environment_id = $1 and def_dossier_id = $2 and not archived group by 1`;
  const rawGrouped = await timed(ITERATIONS / 20, async () => {
    await client.query(grouped, [environment.id, entity.id]);
  });
  const plan = await client.query(`explain (analyze, buffers off) ${page.sql}`, page.parameters as unknown[]);
  const countPlan = await client.query(
    `explain (analyze, buffers off) ${count.sql}`,
    count.parameters as unknown[],
  );
  await client.end();
  // (i) what a tenant pays for the others: planning of (a) on a warm connection, and the page query
  // of (a) as the first statement of a new connection (its catalogue caches are cold)
  const planning = planningTimes(plan.rows);
  const firstOnConnection: number[] = [];
  for (let i = 0; i < 5; i++) {
    const newClient = new pg.Client({
      connectionString: BENCH_URL,
      options: `-c search_path=${BENCH_SCHEMA}`,
    });
    await newClient.connect();
    const start = performance.now();
    await newClient.query(page.sql, page.parameters as unknown[]);
    firstOnConnection.push(performance.now() - start);
    await newClient.end();
  }
  firstOnConnection.sort((x, y) => x - y);
  clearInterval(sampler);
  const referenceAtEnd = machineReferenceMs();
  const { rss: rssEnd, peak: rssPeak } = serverMemory(server);

  // [figure, value, target of issue 14 where it sets one]
  const rows: [string, string, string?][] = [
    ['dossiers in entity', Number(total.n).toLocaleString('en')],
    [
      '(a) matches of query (a)',
      Number((first as { pager: { items: number } }).pager.items).toLocaleString('en'),
    ],
    ['(a) list 50, 2 filters, date sort: p50 / p95', `${ms(a.p50)} / ${ms(a.p95)}`, 'p95 <= 8 ms'],
    ['(a) p50 over the raw page query p50 (e)', ms(a.p50 - rawPage.p50), '<= 2 ms'],
    [
      `(a) and the raw page query in turn (${COMPARED_ITERATIONS / 2}x each): p50 / p50, the difference`,
      `${ms(percentile(inTurn.a, 50))} / ${ms(percentile(inTurn.raw, 50))}, ${ms(percentile(inTurn.a, 50) - percentile(inTurn.raw, 50))}`,
      '<= 2 ms',
    ],
    [
      '(a fetch) (a) timed through fetch instead of node:http: p50 / p95',
      `${ms(aFetch.p50)} / ${ms(aFetch.p95)}`,
    ],
    [`(e) the ${fewest.length} statements of one request (a) replayed through pg: p50`, ms(replayed)],
    ["(a) p50 over those statements: the server's own time", ms(a.p50 - replayed)],
    [
      `(a) and its own statements replayed, in turn (${COMPARED_ITERATIONS / 2}x each): p50 / p50, the difference`,
      `${ms(percentile(inTurn.a, 50))} / ${ms(percentile(inTurn.own, 50))}, ${ms(percentile(inTurn.a, 50) - percentile(inTurn.own, 50))}`,
    ],
    ['(b) (a) + 2 aggregations: p50 / p95', `${ms(b.p50)} / ${ms(b.p95)}`],
    [
      `(a cold) (a), filter never asked before (${COLD_ITERATIONS}x): p50 / p95`,
      `${ms(aCold.p50)} / ${ms(aCold.p95)}`,
    ],
    [
      `(b cold) (b), filter value never asked before, once the filter earned its index (${COLD_ITERATIONS}x): p50 / p95`,
      `${ms(bCold.p50)} / ${ms(bCold.p95)}`,
      '< 50 ms earned',
    ],
    ['(b cold) its first request', ms(bColdFirst.p50), '< 150 ms first'],
    [
      '(b first) 3 filter shapes never asked, (b) aggregations, first request each',
      bFirst.map(ms).join(' / '),
      '< 150 ms first',
    ],
    ['(k) whole entity grouped by a list field: p50 / p95', `${ms(k.p50)} / ${ms(k.p95)}`, '< 50 ms'],
    [
      `(k) the same as raw SQL, a scan (${ITERATIONS / 20}x): p50 / p95`,
      `${ms(rawGrouped.p50)} / ${ms(rawGrouped.p95)}`,
    ],
    [
      `(h) (a) after ${IDLE_SECONDS} s without requests (${IDLE_SAMPLES}x): median / max`,
      `${ms(percentile(idle, 50))} / ${ms(idle[idle.length - 1])}`,
    ],
    ['SQL statements per list request (a)', statementsPerRequest.toFixed(1)],
    ['server CPU per list request (a), in-process, PostgreSQL not included', ms(serverCpuPerRequest)],
    ['(c) create dossier: p50 / p95', c ? `${ms(c.p50)} / ${ms(c.p95)}` : createNote, 'p95 <= 8 ms'],
    [
      `(d) ${CONCURRENCY} clients, ${SECONDS} s, query (a), after warm-up`,
      `${rps.toFixed(1)} requests/s`,
      '>= 450 requests/s',
    ],
    [
      `(d) the same, the ${WARMUP_SECONDS} s of warm-up from idle`,
      `${(warmup.done / WARMUP_SECONDS).toFixed(1)} requests/s`,
    ],
    [
      '(d) CPU per request under load: server / PostgreSQL / load clients',
      `${cpuPerRequest(cpuAfterLoad.server - cpuBeforeLoad.server)} / ${cpuPerRequest(cpuAfterLoad.postgres - cpuBeforeLoad.postgres)} / ${cpuPerRequest(load.cpuSeconds)}`,
    ],
    ['(e) raw SQL page query: p50 / p95', `${ms(rawPage.p50)} / ${ms(rawPage.p95)}`],
    ['(e) raw SQL page + count: p50 / p95', `${ms(rawBoth.p50)} / ${ms(rawBoth.p95)}`],
    [
      `(e) raw SQL exact count(*) (${ITERATIONS / 4}x): p50 / p95`,
      `${ms(rawCount.p50)} / ${ms(rawCount.p95)}`,
    ],
    [
      `(e) raw SQL count capped at 10,001 (${ITERATIONS / 4}x): p50 / p95`,
      `${ms(rawCapped.p50)} / ${ms(rawCapped.p95)}`,
    ],
    ['(e) ratio HTTP (a) p50 / raw page p50', `${(a.p50 / rawPage.p50).toFixed(2)}`],
    ['(i) planning time of the page query (a), warm connection', ms(planning)],
    [
      '(i) page query (a) as the first statement on a new connection (5x): median / max',
      `${ms(percentile(firstOnConnection, 50))} / ${ms(firstOnConnection[firstOnConnection.length - 1])}`,
    ],
    ['(e) ratio HTTP (a cold) p50 / raw page+count p50', `${(aCold.p50 / rawBoth.p50).toFixed(2)}`],
    [
      '(f) server resident memory: peak / end',
      `${(Math.max(rssMax, rssPeak) / 2 ** 20).toFixed(0)} MB / ${(rssEnd / 2 ** 20).toFixed(0)} MB`,
    ],
    [
      '(g) machine speed: fixed JS loop (1e8 iterations) at start / end',
      `${ms(referenceAtStart)} / ${ms(referenceAtEnd)}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(
    `\nDossier list benchmark (${ITERATIONS} requests per row, ${COMPARED_ITERATIONS} for (a) and (c), one client unless stated)`,
  );
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  for (const [label, value, target] of rows)
    console.log(
      `${label.padEnd(width)}  ${target ? `${value.padEnd(valueWidth)}  target ${target}` : value}`,
    );
  console.log('\nplan of the page query (a):');
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  console.log('\nplan of the count query (a):');
  console.log(countPlan.rows.map((r) => r['QUERY PLAN']).join('\n'));

  agent.destroy();
  server.kill('SIGTERM');
  await db.destroy();
}

/** The 'Planning Time' EXPLAIN ANALYZE reports, in ms. */
function planningTimes(rows: { 'QUERY PLAN': string }[]): number {
  const line = rows.map((r) => r['QUERY PLAN']).find((text) => text.startsWith('Planning Time'));
  return Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? Number.NaN);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
