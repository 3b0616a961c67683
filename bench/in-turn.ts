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
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../packages/server/src/db/database';
import { BENCH_SCHEMA, BENCH_URL, benchCase } from './generate';
import {
  cpuSeconds,
  createEnvironmentAdmin,
  keptAliveClient,
  listFilterA,
  loadClients,
  percentile,
  postgresCpuSeconds,
  repoRoot,
  type ServerProcess,
  signIn,
  startServer,
  stopServer,
} from './harness';

const BLOCK = 100;
const SLICE_SECONDS = 5;

interface Side {
  name: string;
  server: ServerProcess;
  cookie: string;
  ask: () => Promise<number>;
  latencies: number[];
  load: { done: number; server: number; postgres: number; clients: number; perSlice: number[] };
}

/** A checkout's server on the bench data, signed in; `ask` times one list (a). */
async function startSide(
  name: string,
  checkout: string,
  login: { username: string; password: string },
  pathA: string,
) {
  const server = await startServer(
    { DATABASE_URL: BENCH_URL, DATABASE_SCHEMA: BENCH_SCHEMA, SEED_DEMO: 'false' },
    { entry: path.join(checkout, 'packages/server/src/main.ts') },
  );
  process.on('exit', () => server.child.kill('SIGTERM'));
  const headers = await signIn(server.address, login.username, login.password);
  const client = keptAliveClient(headers);
  const ask = async () => {
    const started = performance.now();
    await client.send(`${server.address}${pathA}`);
    return performance.now() - started;
  };
  const load = { done: 0, server: 0, postgres: 0, clients: 0, perSlice: [] as number[] };
  return { name, server, cookie: headers.cookie, ask, latencies: [] as number[], load } satisfies Side;
}

async function main() {
  const { values } = parseArgs({
    options: { before: { type: 'string' }, rounds: { type: 'string', default: '6' } },
  });
  const { before } = values;
  if (!before) throw new Error('--before <the other checkout> is required');
  const rounds = Number(values.rounds);
  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  const bench = await benchCase(db);
  const login = { username: `bench_in_turn_${Date.now()}`, password: 'bench password of some length' };
  await createEnvironmentAdmin(db, bench.environmentId, login.username, login.password);
  const pathA = `/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`;
  const sides = [
    await startSide(`before (${path.resolve(before)})`, path.resolve(before), login, pathA),
    await startSide('after (this checkout)', repoRoot, login, pathA),
  ];
  const loadSlice = (side: Side) => loadClients(`${side.server.address}${pathA}`, side.cookie, SLICE_SECONDS);
  // warm: caches, JIT, the sort index (a) earns, then the first seconds of load
  for (const side of sides) {
    for (let n = 0; n < 3 * BLOCK; n++) await side.ask();
    await loadSlice(side);
  }
  for (let round = 0; round < 2 * rounds; round++)
    for (const side of sides) for (let n = 0; n < BLOCK; n++) side.latencies.push(await side.ask());
  for (let round = 0; round < rounds; round++)
    for (const side of sides) {
      const server = cpuSeconds(side.server.child.pid);
      const postgres = postgresCpuSeconds();
      const result = await loadSlice(side);
      if (result.failed) throw new Error(`${side.name}: ${result.failed} requests failed`);
      side.load.done += result.done;
      side.load.server += cpuSeconds(side.server.child.pid) - server;
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
  for (const side of sides) await stopServer(side.server);
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
