// Load bench: simulated users, each signed in with a session of their own, clicking with a think
// time of 1-3 s: 80% reads (the list page with a filter and a sort, a dossier's detail page, quick
// search) and 20% writes (create, edit), for some minutes on PostgreSQL. Usage:
//   npx tsx bench/load.ts                      # 200 users, 10 minutes
//   npx tsx bench/load.ts --minutes 2 --users 200 --dossiers 1000
// DATABASE_URL (default postgres://root@127.0.0.1:5432/test) and LOAD_SCHEMA (default
// bench_load_<pid>): a schema of its own, dropped at the end. The demo of the first start (seed.ts,
// seed-records.ts), the users (Caseworkers, as the demo user) and --dossiers cases created first
// through the API. The server runs as `npm start` runs it (a 192 MB old generation), in a process of
// its own at the default log level.
// Prints per minute: requests, errors, p50/p95/p99 and the server's resident memory. Passes when
// there is no error, p95 stays under 200 ms and the last minute's peak memory is within +20% of the
// second minute's.
import { hashPassword } from '../packages/server/src/auth/passwords';
import { dropSchema, migrate, openDatabase } from '../packages/server/src/db/database';
import { seedDemo } from '../packages/server/src/seed';
import { seedDemoRecords } from '../packages/server/src/seed-records';
import {
  ADMIN_PASSWORD,
  cpuSeconds,
  DEMO_PASSWORD,
  type DemoCase,
  demoCase,
  failureLabel,
  percentile,
  residentBytes,
  type ServerProcess,
  signIn,
  sleep,
  startServer,
  stopServer,
} from './harness';

function numberArg(name: string, fallback: number) {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!(n > 0)) throw new Error(`${name} must be a positive number`);
  return n;
}

const MINUTES = numberArg('--minutes', 10);
const USERS = numberArg('--users', 200);
const DOSSIERS = numberArg('--dossiers', 1000);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = process.env.LOAD_SCHEMA ?? `bench_load_${process.pid}`;
const USER_PASSWORD = 'load user password of some length';
const THINK_MS = [1000, 3000] as const;
const REQUEST_TIMEOUT_MS = 30_000;
const P95_LIMIT_MS = 200;
const RSS_GROWTH_LIMIT = 1.2;
/** share of each action, in percent: 80 reads, 20 writes */
const MIX = [
  ['list', 30],
  ['detail', 30],
  ['search', 20],
  ['create', 10],
  ['edit', 10],
] as const;
type Action = (typeof MIX)[number][0];

const WORDS = [
  'housing',
  'benefit',
  'debt',
  'care',
  'school',
  'transport',
  'review',
  'request',
  'permit',
  'appeal',
];
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function chooseAction(): Action {
  let roll = Math.random() * 100;
  for (const [action, share] of MIX) {
    roll -= share;
    if (roll < 0) return action;
  }
  return 'list';
}

function caseBody(demo: DemoCase, n: number) {
  const title = `${pick(WORDS)} ${pick(WORDS)} ${n}`;
  return {
    [demo.items.title]: title,
    [demo.items.status]: pick(demo.statusOptions),
    [demo.items.amount]: Math.round(Math.random() * 1_000_000) / 100,
    [demo.items.due]:
      `2027-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`,
    [demo.items.description]: `<p>Notes on ${title}.</p>`,
    [demo.items.client]: [pick(demo.clientIds)],
  };
}

/** Runs `task` over 0..count-1 with `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

interface Sample {
  minute: number;
  ms: number;
  action: Action;
  ok: boolean;
}

async function main() {
  if (!/^[a-z_][a-z0-9_]*$/.test(SCHEMA))
    throw new Error(`LOAD_SCHEMA must be a plain identifier, got ${SCHEMA}`);
  const db = await openDatabase({ databaseUrl: DATABASE_URL, databaseSchema: SCHEMA, dataDir: '' });
  let server: ServerProcess | null = null;
  let stopEarly = false;
  process.once('SIGINT', () => {
    console.log('interrupted: finishing the running requests, then cleaning up');
    stopEarly = true;
  });
  try {
    await migrate(db);
    await seedDemo(db, { adminPassword: ADMIN_PASSWORD, demoPassword: DEMO_PASSWORD });
    await seedDemoRecords(db);
    const demo = await demoCase(db);

    // The users, as an administrator would invite them: members of the demo environment with the
    // Caseworker role (show, create, edit) and quick search. One hash serves them all.
    const passwordHash = await hashPassword(USER_PASSWORD);
    const users = await db
      .insertInto('app_user')
      .values(
        Array.from({ length: USERS }, (_, i) => ({
          username: `load_user_${i + 1}`,
          email: `load_user_${i + 1}@example.com`,
          password_hash: passwordHash,
          first_name: 'Load',
          last_name: `User ${i + 1}`,
          roles: ['ROLE_USER'],
          locale: null,
          private_settings: {},
          otp_secret: null,
        })),
      )
      .returning(['id', 'username'])
      .execute();
    await db
      .insertInto('environment_user')
      .values(
        users.map((user) => ({
          environment_id: demo.environmentId,
          user_id: user.id,
          credentials: ['quick_search'],
          role_ids: [demo.caseworkerRoleId],
        })),
      )
      .execute();

    server = await startServer(
      {
        DATABASE_URL,
        DATABASE_SCHEMA: SCHEMA,
        SEED_DEMO: 'false',
        LOG_LEVEL: process.env.BENCH_LOG ?? 'info',
      },
      { quietLog: !process.env.BENCH_LOG },
    );
    const { address } = server;
    const admin = await signIn(address, 'admin', ADMIN_PASSWORD);

    // Dossiers to list, open, find and edit, created through the API.
    const known: number[] = [];
    let created = 0;
    const createStarted = performance.now();
    await inParallel(DOSSIERS, 4, async (i) => {
      const response = await fetch(`${address}/api/contentdossier`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ defDossier: demo.entityId, values: caseBody(demo, i) }),
      });
      if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
      known.push(((await response.json()) as { id: number }).id);
      created++;
    });
    console.log(
      `${created} dossiers created in ${((performance.now() - createStarted) / 1000).toFixed(1)} s`,
    );
    const sessions: Record<string, string>[] = [];
    await inParallel(users.length, 4, async (i) => {
      sessions[i] = await signIn(address, users[i].username, USER_PASSWORD);
    });
    console.log(`${sessions.length} users signed in, each with a session of their own`);

    const listUrl = () =>
      `${address}/api/contentdossier?${new URLSearchParams({
        defDossier: String(demo.entityId),
        environment: String(demo.environmentId),
        limit: '25',
        page: String(Math.floor(Math.random() * 4)),
        [demo.listItems.status]: String(pick(demo.statusOptions)),
        'sort[]': String(demo.listItems.due),
        'sortOrder[]': pick(['ASC', 'DESC']),
      })}`;
    const request = (action: Action, headers: Record<string, string>, n: number) => {
      const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      switch (action) {
        case 'list':
          return fetch(listUrl(), { headers, signal });
        case 'detail':
          return fetch(`${address}/api/contentdossier/${pick(known)}`, { headers, signal });
        case 'search':
          return fetch(
            `${address}/api/contentdossier/search?${new URLSearchParams({
              environment: String(demo.environmentId),
              search: pick(WORDS),
            })}`,
            { headers, signal },
          );
        case 'create':
          return fetch(`${address}/api/contentdossier`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ defDossier: demo.entityId, values: caseBody(demo, n) }),
            signal,
          });
        case 'edit':
          return fetch(`${address}/api/contentdossier/${pick(known)}`, {
            method: 'PUT',
            headers,
            body: JSON.stringify({ values: caseBody(demo, n) }),
            signal,
          });
      }
    };

    const samples: Sample[] = [];
    const errors: string[] = [];
    const rssMax: number[] = [];
    const rssLast: number[] = [];
    // CPU used in each minute by the server and by this load generator, in percent of one core
    const serverCpu: number[] = [];
    const benchCpu: number[] = [];
    let cpuMark = { t: performance.now(), server: cpuSeconds(server.child.pid), bench: process.cpuUsage() };
    const t0 = performance.now();
    const endAt = t0 + MINUTES * 60_000;
    const minuteOf = (t: number) => Math.floor((t - t0) / 60_000);
    let sequence = DOSSIERS;

    const figures = (minute: number) => {
      const own = samples.filter((s) => s.minute === minute);
      const times = own.map((s) => s.ms).sort((a, b) => a - b);
      return {
        requests: own.length,
        errors: own.filter((s) => !s.ok).length,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
      };
    };
    const line = (minute: number) => {
      const f = figures(minute);
      return `  ${String(minute + 1).padStart(6)}  ${String(f.requests).padStart(8)}  ${(f.requests / 60).toFixed(1).padStart(5)}  ${String(f.errors).padStart(6)}  ${f.p50.toFixed(0).padStart(5)}  ${f.p95.toFixed(0).padStart(5)}  ${f.p99.toFixed(0).padStart(5)}  ${mb(rssMax[minute] ?? 0).padStart(8)}  ${mb(rssLast[minute] ?? 0).padStart(8)}  ${`${(serverCpu[minute] ?? 0).toFixed(0)}%`.padStart(10)}  ${`${(benchCpu[minute] ?? 0).toFixed(0)}%`.padStart(9)}`;
    };
    const header =
      '  minute  requests  req/s  errors    p50    p95    p99  RSS max  RSS end  server CPU  bench CPU  (ms; CPU in % of one core)';
    console.log(`\n${USERS} users for ${MINUTES} min, think ${THINK_MS[0] / 1000}-${THINK_MS[1] / 1000} s`);
    console.log(header);

    // The server's resident memory every second; each finished minute is printed as it ends.
    let printed = 0;
    const sampler = setInterval(() => {
      const t = performance.now();
      const minute = Math.min(minuteOf(t), Math.ceil(MINUTES) - 1);
      const rss = residentBytes(server?.child.pid);
      rssMax[minute] = Math.max(rssMax[minute] ?? 0, rss);
      rssLast[minute] = rss;
      // CPU shares are measured over each minute (the last sample in a minute closes it)
      const usedServer = cpuSeconds(server?.child.pid);
      const usedBench = process.cpuUsage(cpuMark.bench);
      const seconds = (t - cpuMark.t) / 1000;
      if (minuteOf(t) !== minuteOf(cpuMark.t) || t >= endAt) {
        serverCpu[minuteOf(cpuMark.t)] = (100 * (usedServer - cpuMark.server)) / seconds;
        benchCpu[minuteOf(cpuMark.t)] = (usedBench.user + usedBench.system) / 1e4 / seconds;
        cpuMark = { t, server: usedServer, bench: process.cpuUsage() };
      }
      // a minute is printed 5 s after its end, when its last requests have answered
      while (printed < minuteOf(t - 5_000)) console.log(line(printed++));
    }, 1000);

    const user = async (headers: Record<string, string>) => {
      for (;;) {
        await sleep(THINK_MS[0] + Math.random() * (THINK_MS[1] - THINK_MS[0]));
        if (performance.now() >= endAt || stopEarly) return;
        const action = chooseAction();
        const start = performance.now();
        let ok = false;
        try {
          const response = await request(action, headers, ++sequence);
          const text = await response.text();
          ok = response.ok;
          if (!ok) errors.push(`${action} ${response.status} ${text.slice(0, 200)}`);
          else if (action === 'create') known.push((JSON.parse(text) as { id: number }).id);
        } catch (error) {
          errors.push(`${action} ${failureLabel(error)}`);
        }
        samples.push({ minute: minuteOf(start), ms: performance.now() - start, action, ok });
      }
    };
    await Promise.all(sessions.map((headers) => user(headers)));
    clearInterval(sampler);
    const minutes = Math.max(...samples.map((s) => s.minute)) + 1;
    while (printed < minutes) console.log(line(printed++));

    const times = samples.map((s) => s.ms).sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    console.log(
      `  total   ${String(samples.length).padStart(8)}  ${(samples.length / ((performance.now() - t0) / 1000)).toFixed(1).padStart(5)}  ${String(errors.length).padStart(6)}  ${percentile(times, 50).toFixed(0).padStart(5)}  ${p95.toFixed(0).padStart(5)}  ${percentile(times, 99).toFixed(0).padStart(5)}`,
    );
    console.log('\n  action   requests    p50    p95    p99  (ms)');
    for (const [action] of MIX) {
      const own = samples
        .filter((s) => s.action === action)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      console.log(
        `  ${action.padEnd(7)}  ${String(own.length).padStart(8)}  ${percentile(own, 50).toFixed(0).padStart(5)}  ${percentile(own, 95).toFixed(0).padStart(5)}  ${percentile(own, 99).toFixed(0).padStart(5)}`,
      );
    }
    for (const error of errors.slice(0, 10)) console.log(`  error: ${error}`);
    for (const logged of server.errorLines.slice(0, 5))
      console.log(`  server error log: ${logged.slice(0, 300)}`);

    const last = minutes - 1;
    const rssJudged = minutes >= 3;
    const checks: [string, boolean][] = [
      ['the server stays alive', server.alive()],
      [`errors: ${errors.length} of ${samples.length} requests`, errors.length === 0 && samples.length > 0],
      [`p95 ${p95.toFixed(0)} ms < ${P95_LIMIT_MS} ms`, p95 < P95_LIMIT_MS],
      [
        rssJudged
          ? `resident memory flat: last minute's peak ${mb(rssMax[last])} <= ${RSS_GROWTH_LIMIT} x the second minute's ${mb(rssMax[1])}`
          : `resident memory flat: not judged, needs 3 minutes or more (peaks ${rssMax.map(mb).join(', ')})`,
        !rssJudged || rssMax[last] <= RSS_GROWTH_LIMIT * rssMax[1],
      ],
      [`server errors logged: ${server.errorLines.length}`, server.errorLines.length === 0],
    ];
    for (const [check, ok] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${check}`);
    const pass = checks.every(([, ok]) => ok);
    console.log(pass ? 'PASS load' : 'FAIL load');
    process.exitCode = pass ? 0 : 1;
  } finally {
    if (server) await stopServer(server);
    await dropSchema(db, SCHEMA);
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
