// How far list (a) is from the floor of its stack: the server as npm start runs it, a bare Fastify app
// that runs the same statements through pg and answers their rows as JSON (floor-route.ts, started
// with the same node arguments), and those statements run directly through pg, timed in turn by one
// node:http client (keep-alive), 500 rounds after 300 of warm-up. What the server adds over the bare
// app is its own work (sign-in, parameters, policy, SQL building, the answer's shape); what the bare
// app adds over the statements is HTTP, Fastify, pg's row parsing and JSON. Usage (after generate.ts):
//   npx tsx bench/floor.ts [--rounds 500]
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { statementsSentBy } from '../packages/server/test/statements';
import { BENCH_SCHEMA, BENCH_URL } from './generate';
import {
  benchAppInProcess,
  listFilterA,
  percentile,
  repoRoot,
  spawnServer,
  stopServer,
  waitForServer,
} from './harness';

async function main() {
  const i = process.argv.indexOf('--rounds');
  const rounds = i >= 0 ? Number(process.argv[i + 1]) : 500;
  const { db, bench, app, signIn } = await benchAppInProcess('bench_floor');
  const cookie = await signIn();
  const listPath = `/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`;
  for (let n = 0; n < 300; n++) await app.inject({ url: listPath, headers: { cookie } }); // earned indexes, caches

  // the statements one warm request (a) sends, with their values
  let answer = { statusCode: 0 };
  const statements = await statementsSentBy(async () => {
    answer = await app.inject({ url: listPath, headers: { cookie } });
  });
  if (answer.statusCode !== 200) throw new Error(`list (a) answered ${answer.statusCode}`);
  const statementsFile = path.join(tmpdir(), `floor-statements-${process.pid}.json`);
  writeFileSync(statementsFile, JSON.stringify(statements));

  const env = {
    DATABASE_URL: BENCH_URL,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  };
  const server = await spawnServer(env);
  const floor = await spawnServer(
    { ...env, FLOOR_STATEMENTS: statementsFile },
    { entry: path.join(repoRoot, 'bench/floor-route.ts') },
  );
  process.on('exit', () => {
    server.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
  });
  await Promise.all([waitForServer(server.address), waitForServer(floor.address, { path: '/floor' })]);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { agent, headers: { cookie } }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () =>
            response.statusCode === 200
              ? resolve(bytes)
              : reject(new Error(`${url}: ${response.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  const direct = new pg.Client({
    connectionString: BENCH_URL,
    options: `-c search_path=${BENCH_SCHEMA} -c plan_cache_mode=force_custom_plan -c jit=off`,
  });
  await direct.connect();
  const runs = {
    server: () => get(`${server.address}${listPath}`),
    floor: () => get(`${floor.address}/floor`),
    statements: async () => {
      for (const [n, { text, values }] of statements.entries())
        await direct.query({ name: `direct_${n}`, text, values });
      return 0;
    },
  };
  const bytes: Record<string, number> = {};
  const times: Record<string, number[]> = { server: [], floor: [], statements: [] };
  for (let round = 0; round < 300 + rounds; round++)
    for (const [name, run] of Object.entries(runs)) {
      const started = performance.now();
      bytes[name] = await run();
      if (round >= 300) times[name].push(performance.now() - started);
    }
  const p50 = (name: string) =>
    percentile(
      times[name].sort((a, b) => a - b),
      50,
    );
  const p95 = (name: string) => percentile(times[name], 95);
  console.log(`list (a) beside its floor, in turn, ${rounds} rounds, ${statements.length} statement(s):`);
  console.log(
    `  server (npm start)                    p50 ${p50('server').toFixed(2)} ms  p95 ${p95('server').toFixed(2)} ms  answer ${bytes.server} bytes`,
  );
  console.log(
    `  bare Fastify, the same statements     p50 ${p50('floor').toFixed(2)} ms  p95 ${p95('floor').toFixed(2)} ms  answer ${bytes.floor} bytes`,
  );
  console.log(
    `  the statements through pg             p50 ${p50('statements').toFixed(2)} ms  p95 ${p95('statements').toFixed(2)} ms`,
  );
  console.log(`  the server's own work (server - bare)      ${(p50('server') - p50('floor')).toFixed(2)} ms`);
  console.log(
    `  the stack's floor (bare - statements)      ${(p50('floor') - p50('statements')).toFixed(2)} ms`,
  );
  await direct.end();
  await Promise.all([stopServer(server), stopServer(floor)]);
  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
