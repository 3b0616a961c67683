// npm test: unit and integration tests (the embedded PostgreSQL always, the shared PostgreSQL server
// when reachable or required),
// then the Chromium end-to-end scenarios.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(import.meta.dirname, '..');
const postgresUrl = new URL(process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test');
const requirePostgres = process.env.REQUIRE_POSTGRES === '1' || process.env.CI === 'true';

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    const answer = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

const hasPostgres = await reachable(postgresUrl.hostname, Number(postgresUrl.port || 5432));
if (!hasPostgres && requirePostgres) {
  console.error(`PostgreSQL is required but not reachable at ${postgresUrl.host}`);
  process.exit(1);
}
if (!hasPostgres)
  console.warn(
    `PostgreSQL not reachable at ${postgresUrl.host}: integration tests run on the embedded PostgreSQL only`,
  );

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium not found at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
  );
  process.exit(1);
}

const vitest = path.join(root, 'node_modules/.bin/vitest');
// The tests' connections do not wait for each commit to reach the disk (about 4 ms a commit on this
// machine's disk): a crash of the test server loses nothing the tests need. The embedded test
// cluster is started so already.
const env = { ...process.env, PGOPTIONS: process.env.PGOPTIONS ?? '-c synchronous_commit=off' };
const run = (projects) =>
  execFileSync(vitest, ['run', ...projects.flatMap((p) => ['--project', p])], {
    cwd: root,
    stdio: 'inherit',
    env,
  });

try {
  run(['unit', 'server-embedded', ...(hasPostgres ? ['server-postgres'] : [])]);
  buildWebIfNeeded();
  run(['e2e']);
} catch {
  process.exit(1);
}
