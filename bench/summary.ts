// Measures summaries with a role-restricted summary item (issue 12, defect 6) on the data of
// bench/generate.ts. Usage: npx tsx bench/summary.ts
// The app runs in this process on the bench schema and is driven through inject (no HTTP), as an
// environment admin (who reads the stored summary) and a member who may not see the restricted item
// (who reads the variant of their class). Phases: (1) no restricted summary item, the common case;
// (2) the 'city' field added to the summary view for one role only, through the API, which rewrites
// the summaries of every dossier of the entity in one transaction; (3) that item removed again.
// Per phase: statements and p50/p95 of the list call, of the list call searching the summary (the link
// picker's call) and of quick search, for a rare text, a common one and (phase 2) a hidden one.
// BENCH_ITERATIONS (default 50) requests each, BENCH_SETTLE_MS (default 5000) after the first;
// BENCH_KEEP_ITEM=1 ends after phase 2, the item kept.
import { createHash } from 'node:crypto';
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { migrate, openDatabase } from '../packages/server/src/db/database';
import { BENCH_ENVIRONMENT, BENCH_SCHEMA, BENCH_URL } from './generate';
import { createMember } from './harness';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 50);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const JWT_SECRET = 'bench-secret-of-enough-length!!';
const PASSWORD = 'bench password of some length';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const ms = (n: number) => `${n.toFixed(1)} ms`;

let statements = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof originalQuery;

async function main() {
  const config = {
    ...loadConfig({}),
    databaseUrl: BENCH_URL,
    databaseSchema: BENCH_SCHEMA,
    dataDir: 'memory://',
    logLevel: process.env.BENCH_LOG ?? 'silent',
    webDist: null,
  } as ReturnType<typeof loadConfig>;
  const db = await openDatabase(config);
  await migrate(db);
  const environment = await db
    .selectFrom('environment')
    .selectAll()
    .where('name', '=', BENCH_ENVIRONMENT)
    .executeTakeFirstOrThrow();
  const [cases, clients] = await db
    .selectFrom('def_dossier')
    .select('id')
    .where('environment_id', '=', environment.id)
    .orderBy('id')
    .execute();
  const city = await db
    .selectFrom('def_dossier_def_field')
    .select('id')
    .where('def_dossier_id', '=', cases.id)
    .where('name', '=', 'city')
    .executeTakeFirstOrThrow();
  const total = await db
    .selectFrom('content_dossier')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('def_dossier_id', '=', cases.id)
    .executeTakeFirstOrThrow();

  const stamp = Date.now();
  const role = async (name: string) =>
    db
      .insertInto('role')
      .values({ environment_id: environment.id, name: `${name} ${stamp}`, translations: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
  const reader = await role('Reader');
  const secret = await role('Secret');
  for (const entity of [cases, clients])
    await db
      .insertInto('permission')
      .values({
        environment_id: environment.id,
        def_dossier_id: entity.id,
        role_id: reader.id,
        actions: ['show'],
      })
      .execute();
  const user = async (name: string, credentials: string[], roleIds: number[]) =>
    (await createMember(db, environment.id, `bench_${name}_${stamp}`, PASSWORD, { credentials, roleIds }))
      .username;
  const adminName = await user('admin', ['environment-admin'], []);
  const memberName = await user('member', [], [reader.id]);

  const app = await buildApp({ config, db, jwtSecret: new TextEncoder().encode(JWT_SECRET) });
  const signIn = async (username: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/login_check',
      headers: { [CSRF_HEADER]: CSRF_VALUE },
      payload: { username, password: PASSWORD },
    });
    if (response.statusCode !== 200) throw new Error(`login: ${response.statusCode} ${response.body}`);
    return {
      cookie: response.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      [CSRF_HEADER]: CSRF_VALUE,
    };
  };
  const readers = { admin: await signIn(adminName), member: await signIn(memberName) };
  type Reader = keyof typeof readers;

  const call = async (who: Reader, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: readers[who], payload });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response;
  };
  const list = (params: Record<string, string> = {}) =>
    `/api/contentdossier?${new URLSearchParams({ defDossier: String(cases.id), environment: String(environment.id), limit: '50', ...params })}`;
  const search = (text: string) =>
    `/api/contentdossier/search?${new URLSearchParams({ environment: String(environment.id), search: text })}`;
  // a text that one dossier's title holds (generate.ts: 'Case ' || left(md5(g), 12)), the summary in phase 1
  const rare = createHash('md5').update('777777').digest('hex').slice(0, 8);

  async function measure(label: string, who: Reader, url: string, check?: (body: unknown) => string) {
    // the first request fills the per-node caches and starts the exact count of a large total,
    // which the requests measured then read from the cache (warm figures, as paging a list is)
    const first = await call(who, 'GET', url);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const before = statements;
    await call(who, 'GET', url);
    const perRequest = statements - before;
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      await call(who, 'GET', url);
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    const note = check ? `  ${check(first.json())}` : '';
    console.log(
      `  ${label.padEnd(44)} ${who.padEnd(6)} p50 ${ms(percentile(samples, 50)).padStart(9)}  p95 ${ms(percentile(samples, 95)).padStart(9)}  ${perRequest} statements${note}`,
    );
  }
  const firstSummary = (body: unknown) => {
    const b = body as { results?: { dossiers: { summary: string }[] }; length?: number };
    const rows = (b.results?.dossiers ?? (body as { summary: string }[])) as { summary: string }[];
    return `${rows.length} hits${rows.length ? `, first '${rows[0].summary}'` : ''}`;
  };

  async function phase(restricted: boolean) {
    for (const who of ['admin', 'member'] as const) {
      await measure('list, 50 newest', who, list(), firstSummary);
      await measure(`list, summary contains '${rare}'`, who, list({ summary: rare }), firstSummary);
      await measure("list, summary contains 'Case'", who, list({ summary: 'Case' }), firstSummary);
      await measure(`quick search '${rare}'`, who, search(rare), firstSummary);
      await measure("quick search 'Case'", who, search('Case'), firstSummary);
      if (restricted) {
        await measure(
          "list, summary contains 'City 77' (restricted)",
          who,
          list({ summary: 'City 77' }),
          firstSummary,
        );
        await measure("quick search 'City 77' (restricted)", who, search('City 77'), firstSummary);
      }
    }
  }

  console.log(
    `${Number(total.n).toLocaleString('en')} dossiers of entity ${cases.id}, ${ITERATIONS} requests each`,
  );
  console.log('(1) no restricted summary item');
  await phase(false);

  let start = performance.now();
  const added = await call('admin', 'POST', '/api/displayitem', {
    environment: environment.id,
    defDossier: cases.id,
    defDossierDefField: city.id,
    view: 'summary',
    rank: 2,
    roles: [secret.id],
    permissions_type: 'INCLUDE_SELECTED_ROLES',
  });
  console.log(
    `(2) 'city' added to the summary for one role: the call took ${((performance.now() - start) / 1000).toFixed(1)} s (every summary rewritten)`,
  );
  await phase(true);

  if (process.env.BENCH_KEEP_ITEM === '1') {
    console.log(`(3) skipped: display item ${added.json().id} stays (BENCH_KEEP_ITEM=1)`);
    await app.close();
    await db.destroy();
    return;
  }
  start = performance.now();
  await call('admin', 'DELETE', `/api/displayitem/${added.json().id}`);
  console.log(
    `(3) the item removed again: the call took ${((performance.now() - start) / 1000).toFixed(1)} s (every summary rewritten)`,
  );
  await phase(false);

  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
