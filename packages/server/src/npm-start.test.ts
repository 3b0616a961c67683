import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { freePort } from '../test/free-port';

// `npm start` as a process manager stops it: SIGTERM to npm alone. npm's `sh -c` does not pass the
// signal on, so scripts/start.mjs stops the server once its parent is gone, and the server its
// embedded PostgreSQL. Runs once, in the embedded suite: it starts a cluster of its own.

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'dossierbase-npm-start-'));
let npmGroup: number | undefined;

afterAll(() => {
  // whatever is left of a failed run: npm was started as the leader of a process group of its own
  try {
    if (npmGroup) process.kill(-npmGroup, 'SIGKILL');
  } catch {
    // the group has ended
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

test.runIf(process.env.TEST_DB === 'embedded')(
  'npm start stopped with SIGTERM stops the server and its embedded PostgreSQL',
  async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    const npm = spawn('npm', ['start'], { cwd: repoRoot, env, detached: true, stdio: 'ignore' });
    npmGroup = npm.pid;
    const health = `http://127.0.0.1:${port}/api/health`;
    await expect.poll(() => answers(health), { timeout: 60_000, interval: 250 }).toBe(true);
    const postmasterPid = path.join(dataDir, 'postgres', 'postmaster.pid');
    expect(existsSync(postmasterPid)).toBe(true);

    npm.kill('SIGTERM');
    await expect.poll(() => answers(health), { timeout: 30_000, interval: 250 }).toBe(false);
    // PostgreSQL removes its pid file at the end of a clean shutdown
    await expect.poll(() => existsSync(postmasterPid), { timeout: 30_000, interval: 250 }).toBe(false);
  },
  120_000,
);
