// Measures the quick search (GET /api/contentdossier/search) on the data of bench/generate.ts, issue 21's
// target: under 30 ms at the 95th percentile for a three-letter and a ten-letter search on 1,000,000
// dossiers. Usage: npx tsx bench/quick-search.ts
//
// It neither migrates nor changes the bench schema (which bench/generate.ts owns); the only row it may
// add is the day's member_activity_day of the user, as every call does. It calls the service the route
// calls, as an environment admin of the bench (bench/list.ts creates one; else a super admin built in
// memory from the first user): the admin's path, every entity. The figures are the server's work
// without HTTP. It also prints the
// plan of the SQL for each search. The unread count is not measured here: its table comes with a
// migration the bench schema may not have yet (it is one index-only count on a partial index).
import { sql } from 'kysely';
import { openDatabase } from '../packages/server/src/db/database';
import type { UserRow } from '../packages/server/src/db/schema';
import { quickSearch } from '../packages/server/src/resources/content-dossier-list/service';
import { BENCH_SCHEMA, BENCH_URL } from './generate';
import { ms, percentile } from './harness';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const TARGET_MS = 30;

const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
try {
  const environment = await db.selectFrom('environment').select('id').orderBy('id').executeTakeFirstOrThrow();
  const total = await db
    .selectFrom('content_dossier')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('environment_id', '=', environment.id)
    .executeTakeFirstOrThrow();
  const environmentAdmin = await db
    .selectFrom('app_user as u')
    .innerJoin('environment_user as eu', 'eu.user_id', 'u.id')
    .selectAll('u')
    .where('eu.environment_id', '=', environment.id)
    .where(sql<boolean>`'environment-admin' = any(eu.credentials)`)
    .executeTakeFirst();
  const first = await db.selectFrom('app_user').selectAll().orderBy('id').executeTakeFirstOrThrow();
  const admin: UserRow = environmentAdmin ?? { ...first, roles: ['ROLE_USER', 'ROLE_ADMIN'] };
  console.log(
    `quick search on ${Number(total.n).toLocaleString('en')} dossiers, ${ITERATIONS} requests each`,
  );

  // Searches from the cases' summaries ('Case 190007 461f6236'): three letters of the hexadecimal part
  // (a few hundred matches), three that match every dossier ('ase'), ten letters (one match) and a
  // text nothing holds. Not measured: texts made of one- and two-letter words ('t 7'), whose trigrams
  // are padded ones that nearly every summary has; they take a few hundred ms on this data.
  const samples = await db
    .selectFrom('content_dossier')
    .select('summary')
    .where('environment_id', '=', environment.id)
    .where(sql<boolean>`id % 99991 = 7`)
    .where('summary', 'like', 'Case %')
    .limit(50)
    .execute();
  const tail = (s: string) => s.split(' ').at(-1) ?? s;
  const searches: [string, string[]][] = [
    ['three letters, a few hundred matches', samples.map((s) => tail(s.summary).slice(2, 5))],
    ['three letters in every summary', ['ase']],
    ['three letters, no match', ['qzx']],
    ['ten letters, one match', samples.map((s) => s.summary.slice(5, 15))],
    ['ten letters, no match', ['zzzzzzzzzz']],
  ];
  const failures: string[] = [];
  for (const [label, terms] of searches) {
    for (const term of terms.slice(0, 5)) await quickSearch(db, admin, environment.id, term, 10); // warm-up
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const term = terms[i % terms.length];
      const start = performance.now();
      hits += (await quickSearch(db, admin, environment.id, term, 10)).length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const verdict = p95 < TARGET_MS ? 'ok' : 'FAIL';
    if (verdict === 'FAIL') failures.push(label);
    console.log(
      `${label.padEnd(40)} p50 ${ms(percentile(times, 50))}  p95 ${ms(p95)}  (target < ${TARGET_MS} ms: ${verdict}), ${(hits / ITERATIONS).toFixed(1)} hits per search`,
    );
    const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers off, timing on)
      select id, summary, def_dossier_id, created_at from content_dossier
      where environment_id = ${environment.id} and archived = false
        and summary ilike ${`%${terms[0]}%`}
        and def_dossier_id in (select id from def_dossier where environment_id = ${environment.id})
      order by id desc limit 10`.execute(db);
    for (const row of plan.rows) console.log(`    ${row['QUERY PLAN']}`);
  }
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await db.destroy();
}
