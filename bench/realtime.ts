// Issue 19's realtime target: an event reaches 200 connected sockets of one environment in under 100 ms
// at the 95th percentile, from the start of the write that caused it, with two server processes on
// PostgreSQL and Redis. Usage: npx tsx bench/realtime.ts
//
// Works in a schema of its own (BENCH_REALTIME_SCHEMA, default bench_realtime) of the test database
// (BENCH_REALTIME_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), migrated from scratch and
// dropped at the end; Redis at REDIS_URL (default redis://127.0.0.1:6379). Two servers start as `npm
// start` starts them (harness.ts), 200 members sign in, half through each node, and each opens a
// socket.io client on that node and joins the environment's room. The writer (an environment admin)
// then creates 50 dossiers through node A's API, one after the other after 5 for warm-up; for each
// write the time from the start of its POST to each socket's receipt of dossier:created is kept.
import os from 'node:os';
import { CSRF_HEADER, CSRF_VALUE, DOSSIER_EVENTS, type DossierEvent } from '@dossierbase/core';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import { hashPassword } from '../packages/server/src/auth/passwords';
import { dropSchema, migrate, openDatabase } from '../packages/server/src/db/database';
import { buildDefDossier } from '../packages/server/test/factories';
import { ms, percentile, type ServerProcess, signIn, startServer, stopServer } from './harness';

const URL = process.env.BENCH_REALTIME_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_REALTIME_SCHEMA ?? 'bench_realtime';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const WRITES = Number(process.env.BENCH_WRITES ?? 50);
const WARM_UP = 5;
const TARGET_MS = 100;
const PASSWORD = 'bench realtime password of some length';

const db = await openDatabase({ databaseUrl: URL, databaseSchema: SCHEMA, dataDir: '' });
const servers: ServerProcess[] = [];
const sockets: Socket[] = [];
try {
  // a schema left by an interrupted run starts again empty
  await dropSchema(db, SCHEMA);
  await sql`create schema ${sql.id(SCHEMA)}`.execute(db);
  await migrate(db);
  const environment = (
    await sql<{ id: number }>`insert into environment (name, description) values ('Realtime bench', 'bench')
      returning id`.execute(db)
  ).rows[0].id;
  const entity = (await buildDefDossier(db, environment, { name: 'Task' })).id;
  // one hash for everyone: hashing 201 passwords would be most of the set-up's time
  const hash = await hashPassword(PASSWORD);
  await sql`insert into app_user (username, password_hash, first_name, last_name, roles, private_settings)
    select 'rt_' || n, ${hash}, 'Bench', 'User ' || n, '{ROLE_USER}', '{}'
    from generate_series(0, ${CLIENTS}) n`.execute(db);
  await sql`insert into environment_user (environment_id, user_id, credentials, role_ids)
    select ${environment}, id, case when username = 'rt_0' then '{environment-admin}'::text[] else '{}' end, '{}'
    from app_user where username like 'rt\\_%'`.execute(db);

  const env = {
    DATABASE_URL: URL,
    DATABASE_SCHEMA: SCHEMA,
    REDIS_URL,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  };
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  const [nodeA, nodeB] = servers.map((s) => s.address);
  console.log(
    `load average before: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')} (${os.cpus().length} cores)`,
  );
  console.log(`two nodes: ${nodeA} and ${nodeB}, Redis ${REDIS_URL}`);

  // 200 members, each signed in through one node and connected to it (even: A, odd: B)
  const started = performance.now();
  // an event can come before the POST's answer tells its id: kept here until then
  const early: { id: number; at: number }[] = [];
  const pending = new Map<number, { start: number; times: number[]; done: () => void }>();
  for (let i = 1; i <= CLIENTS; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, CLIENTS - i + 1) }, async (_, k) => {
        const n = i + k;
        const node = n % 2 === 0 ? nodeA : nodeB;
        const { cookie } = await signIn(node, `rt_${n}`, PASSWORD);
        const socket = connect(node, {
          path: '/socket.io',
          transports: ['websocket'],
          extraHeaders: { cookie },
        });
        sockets.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        const answer = (await socket.timeout(10_000).emitWithAck('join', { environment })) as { ok: boolean };
        if (!answer.ok) throw new Error(`rt_${n} could not join`);
        socket.on(DOSSIER_EVENTS.created, (event: DossierEvent) => {
          const at = performance.now();
          const write = pending.get(event.ids[0]);
          if (write) {
            write.times.push(at - write.start);
            if (write.times.length === CLIENTS) write.done();
          } else early.push({ id: event.ids[0], at });
        });
      }),
    );
  }
  console.log(`${CLIENTS} sockets joined in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const writer = await signIn(nodeA, 'rt_0', PASSWORD);
  const perWrite: number[] = [];
  const answers: number[] = [];
  // receipt minus the POST's answer: what delivery adds to the write (negative: heard before the answer)
  const afterAnswer: number[] = [];
  const all: number[] = [];
  for (let w = 0; w < WARM_UP + WRITES; w++) {
    const start = performance.now();
    const response = await fetch(`${nodeA}/api/contentdossier`, {
      method: 'POST',
      headers: { ...writer, [CSRF_HEADER]: CSRF_VALUE },
      body: JSON.stringify({ defDossier: entity, values: {} }),
    });
    if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    const { id } = (await response.json()) as { id: number };
    const answered = performance.now() - start;
    const times: number[] = [];
    const complete = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`write ${w}: ${times.length} of ${CLIENTS} heard`)),
        10_000,
      );
      pending.set(id, {
        start,
        times,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    for (const e of early.splice(0)) if (e.id === id) times.push(e.at - start);
    if (times.length === CLIENTS) pending.get(id)?.done();
    await complete;
    pending.delete(id);
    if (w < WARM_UP) continue;
    all.push(...times);
    answers.push(answered);
    for (const t of times) afterAnswer.push(t - answered);
    perWrite.push(Math.max(...times));
  }
  all.sort((a, b) => a - b);
  perWrite.sort((a, b) => a - b);
  const p95 = percentile(all, 95);
  console.log(`\n${WRITES} writes, ${CLIENTS} sockets (${CLIENTS / 2} on each node), ${all.length} receipts`);
  console.log(
    `  write start -> socket receipt: p50 ${ms(percentile(all, 50))}, p95 ${ms(p95)}, max ${ms(all[all.length - 1])}`,
  );
  console.log(
    `  write start -> last socket of the write: p50 ${ms(percentile(perWrite, 50))}, p95 ${ms(percentile(perWrite, 95))}`,
  );
  answers.sort((a, b) => a - b);
  console.log(
    `  the POST's own answer: p50 ${ms(percentile(answers, 50))}, p95 ${ms(percentile(answers, 95))}`,
  );
  afterAnswer.sort((a, b) => a - b);
  console.log(
    `  receipt relative to the POST's answer: p50 ${ms(percentile(afterAnswer, 50))}, p95 ${ms(percentile(afterAnswer, 95))}`,
  );
  console.log(
    `  load average after: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
  console.log(`  target p95 < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'met' : 'NOT met'}`);
} finally {
  for (const socket of sockets) socket.disconnect();
  await Promise.all(servers.map(stopServer));
  await dropSchema(db, SCHEMA).catch(() => {});
  await db.destroy();
}
