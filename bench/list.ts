// Measures the dossier list call on the data of bench/generate.ts. Usage: npx tsx bench/list.ts
// Starts the app in-process on the bench schema, signs in as an admin it creates and drives the
// API with fetch over loopback; the raw SQL of the same query runs directly through pg.
import { CSRF_HEADER, CSRF_VALUE } from '@dossierbase/core';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { hashPassword } from '../packages/server/src/auth/passwords';
import { loadConfig } from '../packages/server/src/config';
import { openDatabase } from '../packages/server/src/db/database';
import { visibleItems } from '../packages/server/src/policy/display-item';
import { openEnvironment } from '../packages/server/src/policy/environment';
import { fieldIndexSyncIdle } from '../packages/server/src/query/field-indexes';
import {
  type Column,
  columnOf,
  countQuery,
  filteredQuery,
  pageQuery,
  parseListParams,
} from '../packages/server/src/query/list-query';
import { FILTER_VIEWS } from '../packages/server/src/resources/content-dossier-list/service';
import { BENCH_ENVIRONMENT, BENCH_SCHEMA, BENCH_URL } from './generate';

const ITERATIONS = 200;
const COLD_ITERATIONS = 40;
const CONCURRENCY = 10;
const SECONDS = 10;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed(times: number, run: () => Promise<void>) {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function main() {
  const config = {
    ...loadConfig({}),
    databaseUrl: BENCH_URL,
    databaseSchema: BENCH_SCHEMA,
    dataDir: 'memory://',
    logLevel: 'silent',
    webDist: null,
  } as ReturnType<typeof loadConfig>;
  const db = await openDatabase(config);
  const environment = await db
    .selectFrom('environment')
    .selectAll()
    .where('name', '=', BENCH_ENVIRONMENT)
    .executeTakeFirstOrThrow();
  const entity = await db
    .selectFrom('def_dossier')
    .select('id')
    .where('environment_id', '=', environment.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const total = await db
    .selectFrom('content_dossier')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('def_dossier_id', '=', entity.id)
    .executeTakeFirstOrThrow();

  const username = `bench_admin_${Date.now()}`;
  const password = 'bench password of some length';
  const admin = await db
    .insertInto('app_user')
    .values({
      username,
      email: null,
      password_hash: await hashPassword(password),
      first_name: 'Bench',
      last_name: 'Admin',
      roles: ['ROLE_USER'],
      locale: null,
      private_settings: {},
      otp_secret: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('environment_user')
    .values({
      environment_id: environment.id,
      user_id: admin.id,
      credentials: ['environment-admin'],
      role_ids: [],
    })
    .execute();

  const app = await buildApp({
    config,
    db,
    jwtSecret: new TextEncoder().encode('bench-secret-of-enough-length!!'),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await fetch(`${address}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { cookie, [CSRF_HEADER]: CSRF_VALUE };

  // Display items of the list view by data-field name.
  const items = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as dd', 'dd.id', 'i.def_dossier_def_field_id')
    .select(['i.id', 'i.view', 'dd.name'])
    .where('i.def_dossier_id', '=', entity.id)
    .execute();
  const listItem = (name: string) => items.find((i) => i.name === name && i.view === 'list')?.id as number;
  const editItem = (name: string) =>
    items.find((i) => i.name === name && i.view === 'show/edit')?.id as number;
  const option = await db
    .selectFrom('def_field_list')
    .select('id')
    .where('environment_id', '=', environment.id)
    .orderBy('rank')
    .offset(1)
    .limit(1)
    .executeTakeFirstOrThrow();

  const filterA: Record<string, string> = {
    defDossier: String(entity.id),
    environment: String(environment.id),
    limit: '50',
    page: '0',
    [listItem('status')]: String(option.id),
    [`${listItem('price')}_min`]: '1000',
    [`${listItem('price')}_max`]: '5000',
    'sort[]': String(listItem('due')),
    'sortOrder[]': 'DESC',
  };
  const filterB = {
    ...filterA,
    [`${listItem('price')}_aggregate`]: 'sum',
    [`${listItem('hours')}_aggregate`]: 'avg',
  };
  const urlA = `${address}/api/contentdossier?${new URLSearchParams(filterA)}`;
  const urlB = `${address}/api/contentdossier?${new URLSearchParams(filterB)}`;
  const get = async (url: string) => {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };

  let rssMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }, 50);

  // warm-up (also lets the once-per-process index sync finish)
  for (let i = 0; i < 20; i++) await get(urlA);
  await fieldIndexSyncIdle(db);
  const first = await (await fetch(urlA, { headers })).json();

  const a = await timed(ITERATIONS, () => get(urlA));
  console.log(`(a) done: p50 ${ms(a.p50)} p95 ${ms(a.p95)}`);
  const b = await timed(ITERATIONS, () => get(urlB));
  console.log(`(b) done: p50 ${ms(b.p50)} p95 ${ms(b.p95)}`);

  // The same with a filter value no request has asked before: the total and the aggregations are
  // counted for real (the cache only helps paging, sorting and repeated views of one filter).
  let fresh = 0;
  const freshUrl = (filter: Record<string, string>) =>
    `${address}/api/contentdossier?${new URLSearchParams({ ...filter, [`${listItem('price')}_min`]: String(1000 + ++fresh / 100) })}`;
  const aCold = await timed(COLD_ITERATIONS, () => get(freshUrl(filterA)));
  console.log(`(a cold) done: p50 ${ms(aCold.p50)} p95 ${ms(aCold.p95)}`);
  const bCold = await timed(COLD_ITERATIONS, () => get(freshUrl(filterB)));
  console.log(`(b cold) done: p50 ${ms(bCold.p50)} p95 ${ms(bCold.p95)}`);

  // SQL statements per list request (every pg client's query calls, over 20 requests)
  let statements = 0;
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof originalQuery;
  for (let i = 0; i < 20; i++) await get(urlA);
  pg.Client.prototype.query = originalQuery;
  const statementsPerRequest = statements / 20;

  let c: { p50: number; p95: number } | null = null;
  let createNote = '';
  const createBody = () =>
    JSON.stringify({
      defDossier: entity.id,
      values: {
        [editItem('title')]: 'Bench created',
        [editItem('price')]: '123,45',
        [editItem('due')]: '2026-05-01',
        [editItem('status')]: option.id,
      },
    });
  const probe = await fetch(`${address}/api/contentdossier`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: createBody(),
  });
  if (probe.status === 200 || probe.status === 201) {
    c = await timed(ITERATIONS, async () => {
      const response = await fetch(`${address}/api/contentdossier`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: createBody(),
      });
      if (response.status >= 300) throw new Error(`create: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    });
  } else createNote = `not measured (POST answered ${probe.status})`;

  // (d) 10 clients for 10 seconds
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await get(urlA);
        done += 1;
      }
    }),
  );
  const rps = done / SECONDS;
  console.log(`(d) done: ${rps.toFixed(1)} requests/s`);

  // (e) the SQL the server runs for (a): page and count, straight through pg
  const access = await openEnvironment(db, admin, environment.id);
  const visible = await visibleItems(db, access, entity.id, FILTER_VIEWS);
  const columns = new Map<number, Column>();
  for (const v of visible) {
    const column = columnOf(v);
    if (column) columns.set(v.item.id, column);
  }
  const { params, errors } = parseListParams(filterA, {
    defDossierId: entity.id,
    environmentId: environment.id,
    filterable: columns,
    embedded: null,
  });
  if (Object.keys(errors).length) throw new Error(JSON.stringify(errors));
  const page = pageQuery(db, params).compile();
  const count = countQuery(db, params).compile();
  const client = new pg.Client({ connectionString: BENCH_URL, options: `-c search_path=${BENCH_SCHEMA}` });
  await client.connect();
  const rawPage = await timed(ITERATIONS, async () => {
    await client.query(page.sql, page.parameters as unknown[]);
  });
  const rawBoth = await timed(ITERATIONS, async () => {
    await Promise.all([
      client.query(page.sql, page.parameters as unknown[]),
      client.query(count.sql, count.parameters as unknown[]),
    ]);
  });
  const rawCount = await timed(ITERATIONS / 4, async () => {
    await client.query(count.sql, count.parameters as unknown[]);
  });
  const capped = db
    .selectFrom(filteredQuery(db, params).select(sql`1`.as('one')).limit(10_001).as('s'))
    .select(sql`count(*)`.as('n'))
    .compile();
  const rawCapped = await timed(ITERATIONS / 4, async () => {
    await client.query(capped.sql, capped.parameters as unknown[]);
  });
  const plan = await client.query(`explain (analyze, buffers off) ${page.sql}`, page.parameters as unknown[]);
  const countPlan = await client.query(
    `explain (analyze, buffers off) ${count.sql}`,
    count.parameters as unknown[],
  );
  await client.end();
  clearInterval(sampler);
  const rssEnd = process.memoryUsage().rss;

  const rows: [string, string][] = [
    ['dossiers in entity', Number(total.n).toLocaleString('en')],
    [
      '(a) matches of query (a)',
      Number((first as { pager: { items: number } }).pager.items).toLocaleString('en'),
    ],
    ['(a) list 50, 2 filters, date sort: p50 / p95', `${ms(a.p50)} / ${ms(a.p95)}`],
    ['(b) (a) + 2 aggregations: p50 / p95', `${ms(b.p50)} / ${ms(b.p95)}`],
    [
      `(a cold) (a), filter never asked before (${COLD_ITERATIONS}x): p50 / p95`,
      `${ms(aCold.p50)} / ${ms(aCold.p95)}`,
    ],
    [
      `(b cold) (b), filter never asked before (${COLD_ITERATIONS}x): p50 / p95`,
      `${ms(bCold.p50)} / ${ms(bCold.p95)}`,
    ],
    ['SQL statements per list request (a)', statementsPerRequest.toFixed(1)],
    ['(c) create dossier: p50 / p95', c ? `${ms(c.p50)} / ${ms(c.p95)}` : createNote],
    [`(d) ${CONCURRENCY} clients, ${SECONDS} s, query (a)`, `${rps.toFixed(1)} requests/s`],
    ['(e) raw SQL page query: p50 / p95', `${ms(rawPage.p50)} / ${ms(rawPage.p95)}`],
    ['(e) raw SQL page + count: p50 / p95', `${ms(rawBoth.p50)} / ${ms(rawBoth.p95)}`],
    [
      `(e) raw SQL exact count(*) (${ITERATIONS / 4}x): p50 / p95`,
      `${ms(rawCount.p50)} / ${ms(rawCount.p95)}`,
    ],
    [
      `(e) raw SQL count capped at 10,001 (${ITERATIONS / 4}x): p50 / p95`,
      `${ms(rawCapped.p50)} / ${ms(rawCapped.p95)}`,
    ],
    ['(e) ratio HTTP (a) p50 / raw page p50', `${(a.p50 / rawPage.p50).toFixed(2)}`],
    ['(e) ratio HTTP (a cold) p50 / raw page+count p50', `${(aCold.p50 / rawBoth.p50).toFixed(2)}`],
    [
      '(f) resident memory: max during run / end',
      `${(rssMax / 2 ** 20).toFixed(0)} MB / ${(rssEnd / 2 ** 20).toFixed(0)} MB`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\nDossier list benchmark (${ITERATIONS} requests per row, one client unless stated)`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
  console.log('\nplan of the page query (a):');
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  console.log('\nplan of the count query (a):');
  console.log(countPlan.rows.map((r) => r['QUERY PLAN']).join('\n'));

  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
