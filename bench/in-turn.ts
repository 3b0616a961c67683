// List (a) of list.ts on two checkouts' servers at once, timed in turn: this machine's speed moves by
// tens of percent within minutes (the loop (g) of list.ts), so two list.ts runs minutes apart cannot
// show a change of a few tenths of a millisecond; blocks in turn can. Both servers run as npm start
// runs them, on the bench data; one client asks (a) in blocks of 100 in turn, then 10 clients in slices
// of 5 s in turn, with the CPU each request cost the server, PostgreSQL and the load clients.
// Usage (after generate.ts), with the checkout to compare against beside this one:
//   git worktree add /tmp/before <commit>
//   ln -s "$PWD/node_modules" /tmp/before/node_modules
//   ln -s "$PWD/packages/server/node_modules" /tmp/before/packages/server/node_modules
//   npx tsx bench/in-turn.ts --before /tmp/before [--rounds 6]
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { openDatabase } from '../packages/server/src/db/database';
import { freePort } from '../packages/server/test/free-port';
// @ts-expect-error: a plain .mjs module of the start script, without types
import { serverNodeArgs } from '../scripts/server-node-args.mjs';
import { BENCH_SCHEMA, BENCH_URL, benchCase } from './generate';
import {
  cpuSeconds,
  createEnvironmentAdmin,
  JWT_SECRET,
  listFilterA,
  loadClients,
  percentile,
  postgresCpuSeconds,
  repoRoot,
  waitForServer,
} from './harness';

const BLOCK = 100;
const SLICE_SECONDS = 5;

interface Side {
  name: string;
  child: ChildProcess;
  address: string;
  cookie: string;
  latencies: number[];
  load: { done: number; server: number; postgres: number; clients: number; perSlice: number[] };
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function startSide(name: string, checkout: string, login: { username: string; password: string }) {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...serverNodeArgs, path.join(checkout, 'packages/server/src/main.ts')],
    {
      cwd: checkout,
      env: {
        ...process.env,
        DATABASE_URL: BENCH_URL,
        DATABASE_SCHEMA: BENCH_SCHEMA,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        JWT_SECRET,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  process.on('exit', () => child.kill('SIGTERM'));
  await waitForServer(address);
  const answer = await fetch(`${address}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify(login),
  });
  if (answer.status !== 200) throw new Error(`${name}: login failed (${answer.status})`);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const load = { done: 0, server: 0, postgres: 0, clients: 0, perSlice: [] as number[] };
  return { name, child, address, cookie, latencies: [] as number[], load } satisfies Side;
}

async function main() {
  const before = option('--before');
  if (!before) throw new Error('--before <the other checkout> is required');
  const rounds = Number(option('--rounds') ?? 6);
  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  const bench = await benchCase(db);
  const login = { username: `bench_in_turn_${Date.now()}`, password: 'bench password of some length' };
  await createEnvironmentAdmin(db, bench.environmentId, login.username, login.password);
  const pathA = `/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`;
  const sides = [
    await startSide(`before (${path.resolve(before)})`, path.resolve(before), login),
    await startSide('after (this checkout)', repoRoot, login),
  ];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (side: Side) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      http
        .get(`${side.address}${pathA}`, { agent, headers: { cookie: side.cookie } }, (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200
              ? resolve(performance.now() - started)
              : reject(new Error(`${side.name}: ${response.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  // warm: caches, JIT, the sort index (a) earns, then the first seconds of load
  for (const side of sides) {
    for (let n = 0; n < 3 * BLOCK; n++) await ask(side);
    await loadClients(`${side.address}${pathA}`, side.cookie, SLICE_SECONDS);
  }
  for (let round = 0; round < 2 * rounds; round++)
    for (const side of sides) for (let n = 0; n < BLOCK; n++) side.latencies.push(await ask(side));
  for (let round = 0; round < rounds; round++)
    for (const side of sides) {
      const server = cpuSeconds(side.child.pid);
      const postgres = postgresCpuSeconds();
      const result = await loadClients(`${side.address}${pathA}`, side.cookie, SLICE_SECONDS);
      if (result.failed) throw new Error(`${side.name}: ${result.failed} requests failed`);
      side.load.done += result.done;
      side.load.server += cpuSeconds(side.child.pid) - server;
      side.load.postgres += postgresCpuSeconds() - postgres;
      side.load.clients += result.cpuSeconds;
      side.load.perSlice.push(Math.round(result.done / SLICE_SECONDS));
    }
  for (const side of sides) {
    const sorted = [...side.latencies].sort((a, b) => a - b);
    const { done, server, postgres, clients, perSlice } = side.load;
    const perRequest = (seconds: number) => ((1000 * seconds) / done).toFixed(2);
    console.log(side.name);
    console.log(
      `  (a), one client, ${sorted.length} in blocks of ${BLOCK} in turn: p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms`,
    );
    console.log(
      `  (a), 10 clients, ${rounds} slices of ${SLICE_SECONDS} s in turn: ${(done / (rounds * SLICE_SECONDS)).toFixed(1)} requests/s (${perSlice.join(' ')})`,
    );
    console.log(
      `  CPU per request under that load: server ${perRequest(server)} / PostgreSQL ${perRequest(postgres)} / load clients ${perRequest(clients)} ms`,
    );
  }
  await db.destroy();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
