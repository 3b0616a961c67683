// Measures the unread count (GET /api/message/unread/count) and the bell's list on 1,000,000 messages,
// issue 21's target: the count under 5 ms at the 95th percentile. Usage: npx tsx bench/unread-count.ts
//
// Works in a schema of its own (BENCH_UNREAD_SCHEMA, default bench_unread) of the test database
// (BENCH_UNREAD_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), migrated from scratch and
// dropped at the end: the records benchmark's schema is not touched. One environment, 1,000 members and
// 1,000 messages to each (1,000,000 recipients' rows), one in 20 unread.
import { sql } from 'kysely';
import { type Db, dropSchema, migrate, openDatabase } from '../packages/server/src/db/database';
import type { UserRow } from '../packages/server/src/db/schema';
import { listMessages, unreadCount } from '../packages/server/src/resources/message/service';
import { ms, percentile } from './harness';

const URL = process.env.BENCH_UNREAD_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = process.env.BENCH_UNREAD_SCHEMA ?? 'bench_unread';
const USERS = 1_000;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ITERATIONS = 200;
const TARGET_MS = 5;

/** The calls bench/unread-count.ts times: the count, and the bell's five newest unread messages. */
export function fetchMessagesForBench(db: Db, environment: number, firstUser: number, users: number) {
  const userOf = (i: number) => firstUser + ((i * 37) % users);
  const calls: [string, (i: number) => Promise<unknown>][] = [
    ['unread count (the query)', (i) => unreadCount(db, environment, userOf(i))],
    [
      'bell: 5 newest unread (service)',
      async (i) => {
        const user = await db
          .selectFrom('app_user')
          .selectAll()
          .where('id', '=', userOf(i))
          .executeTakeFirstOrThrow();
        return listMessages(db, user as UserRow, {
          environment,
          filter: 'incoming',
          new: '1',
          limit: 5,
          page: 0,
        });
      },
    ],
  ];
  return calls;
}

const db = await openDatabase({ databaseUrl: URL, databaseSchema: SCHEMA, dataDir: '' });
try {
  await migrate(db);
  const started = performance.now();
  const environment = (
    await sql<{ id: number }>`insert into environment (name, description) values ('Unread bench', 'bench')
      returning id`.execute(db)
  ).rows[0].id;
  await sql`insert into app_user (username, roles)
    select 'reader_' || n, '{ROLE_USER}' from generate_series(1, ${USERS}) n`.execute(db);
  await sql`insert into environment_user (environment_id, user_id, credentials, role_ids)
    select ${environment}, id, '{}', '{}' from app_user where username like 'reader_%'`.execute(db);
  const first = (
    await sql<{ id: number }>`select min(id)::int as id from app_user where username like 'reader_%'`.execute(
      db,
    )
  ).rows[0].id;
  await sql`insert into message (environment_id, sender_id, title, message_text)
    select ${environment}, ${first} + (n % ${USERS}), 'Message ' || n, '<p>Text of message ' || n || '</p>'
    from generate_series(1, ${MESSAGES}) n`.execute(db);
  await sql`insert into message_recipient (environment_id, message_id, user_id, read_at)
    select m.environment_id, m.id, ${first} + ((m.id * 7) % ${USERS}),
      case when m.id % 20 = 0 then null else now() end
    from message m`.execute(db);
  await sql`vacuum analyze message`.execute(db);
  await sql`vacuum analyze message_recipient`.execute(db);
  console.log(
    `${MESSAGES.toLocaleString('en')} messages to ${USERS} members in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const calls = fetchMessagesForBench(db, environment, first, USERS);
  for (const [label, call] of calls) {
    for (let i = 0; i < 20; i++) await call(i); // warm-up
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      await call(i);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const target = label.startsWith('unread count')
      ? ` (target < ${TARGET_MS} ms: ${p95 < TARGET_MS ? 'ok' : 'FAIL'})`
      : '';
    console.log(`${label.padEnd(32)} p50 ${ms(percentile(times, 50))}  p95 ${ms(p95)}${target}`);
  }
} finally {
  await dropSchema(db, SCHEMA);
  await db.destroy();
}
