import { sql } from 'kysely';
import pg from 'pg';
import { type Db, migrate, openDatabase } from '../packages/server/src/db/database';
import { pageQuery } from '../packages/server/src/query/compile/page';
import { syncFieldIndexes } from '../packages/server/src/query/field-indexes';
import { USES_BEFORE_BUILD } from '../packages/server/src/query/sort-indexes';
import { buildEnvironment } from '../packages/server/test/factories';
import { BENCH_SCHEMA, BENCH_URL, type BenchCase, benchCase } from './generate';
import {
  createBodyC,
  createEnvironmentAdmin,
  indexBuildsDone,
  keptAliveClient,
  listFilterA,
  listParamsOfA,
  loadClients,
  ms,
  percentile,
  planningTimes,
  projectionReady,
  type ServerProcess,
  settle,
  signIn,
  startServer,
  stopServer,
} from './harness';

const TENANT_PREFIX = 'Bench tenant ';
const ENTITIES = 10;
const FIELDS = ['text', 'amount', 'date', 'list', 'email'] as const;
const DOSSIERS = 100;

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

/** Deletes the other environments of an earlier run, their rows and their partitions. */
async function removeTenants(db: Db): Promise<number> {
  const tenants = await db
    .selectFrom('environment')
    .select('id')
    .where('name', 'like', `${TENANT_PREFIX}%`)
    .execute();
  for (const { id } of tenants) {
    await db.deleteFrom('environment').where('id', '=', id).execute();
    // detached first: a partition that foreign keys refer to cannot be dropped while attached
    for (const table of ['content_link', 'dossier_log', 'content_dossier']) {
      const partition = `${table}_e${id}`;
      const attached = await sql`select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where c.relname = ${partition} and c.relnamespace = current_schema()::regnamespace`.execute(db);
      if (attached.rows.length)
        await sql`alter table ${sql.table(table)} detach partition ${sql.table(partition)}`.execute(db);
      await sql`drop table if exists ${sql.table(partition)}`.execute(db);
    }
  }
  return tenants.length;
}

async function addTenant(db: Db, n: number): Promise<{ entities: number[] }> {
  const environment = await buildEnvironment(db, { name: `${TENANT_PREFIX}${n}`, description: '' });
  const bases = [];
  for (const type of FIELDS) {
    const base = await db
      .insertInto('def_field')
      .values({ environment_id: environment.id, name: `t${n}_${type}`, type, settings: {} })
      .returning('id')
      .executeTakeFirstOrThrow();
    let options: number[] = [];
    if (type === 'list')
      options = (
        await db
          .insertInto('def_field_list')
          .values(
            [1, 2, 3].map((rank) => ({
              environment_id: environment.id,
              def_field_id: base.id,
              color: null,
              rank,
              translations: [{ culture: 'en_GB', text: `Option ${rank}` }],
              settings: {},
            })),
          )
          .returning('id')
          .execute()
      ).map((o) => o.id);
    bases.push({ id: base.id, type, options });
  }
  const entities: number[] = [];
  for (let e = 0; e < ENTITIES; e++) {
    const entity = await db
      .insertInto('def_dossier')
      .values({
        environment_id: environment.id,
        type: 'main',
        visibility_roles: [],
        translations: [{ culture: 'en_GB', name: `E${e}`, name_singular: `E${e}`, name_plural: `E${e}` }],
        settings: {},
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const values: [string, string][] = [];
    for (const base of bases) {
      const data = await db
        .insertInto('def_dossier_def_field')
        .values({
          environment_id: environment.id,
          def_dossier_id: entity.id,
          def_field_id: base.id,
          name: base.type,
          settings: {},
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('display_item')
        .values({
          environment_id: environment.id,
          def_dossier_id: entity.id,
          display_position_id: null,
          def_dossier_def_field_id: data.id,
          def_dossier_link_id: null,
          view: 'list',
          roles: [],
          translations: [{ culture: 'en_GB', name: base.type }],
          settings: {},
        })
        .execute();
      const value = {
        text: `'Item ' || g`,
        amount: 'round((random() * 1000)::numeric, 2)',
        date: `to_char(date '2024-01-01' + g, 'YYYY-MM-DD')`,
        list: `(array[${base.options.join(',') || 'null'}]::int[])[1 + g % 3]`,
        email: `'item' || g || '@example.test'`,
      }[base.type];
      values.push([String(data.id), value]);
    }
    const object = values.map(([key, value]) => `'${key}', ${value}`).join(', ');
    await sql`insert into content_dossier (environment_id, def_dossier_id, summary, "values")
      select ${environment.id}, ${entity.id}, 'Item ' || g, jsonb_build_object(${sql.raw(object)})
      from generate_series(1, ${DOSSIERS}) g`.execute(db);
    entities.push(entity.id);
  }
  for (const entity of entities) await syncFieldIndexes(db, entity, { concurrently: false });
  return { entities };
}

/** The alone copy's database: the bench database's name with `_alone`. */
const aloneUrl = () => {
  const url = new URL(BENCH_URL);
  url.pathname = `${url.pathname}_alone`;
  return url.toString();
};
const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Runs `statement` on the cluster's `postgres` database (CREATE and DROP DATABASE cannot run inside the one they name). */
async function onCluster(statement: string) {
  const url = new URL(BENCH_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * One side of the comparison: a server on one of the two databases, signed in as a new environment
 * admin of the bench environment, with a timed client over one kept-alive connection (as list.ts's).
 */
interface Side {
  label: string;
  url: string;
  db: Db;
  server: ServerProcess;
  headers: Record<string, string>;
  bench: BenchCase;
  admin: Awaited<ReturnType<typeof createEnvironmentAdmin>>;
  send(path: string, body?: string): Promise<void>;
}

async function openSide(label: string, url: string): Promise<Side> {
  const db = await openDatabase({ databaseUrl: url, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  await migrate(db);
  const bench = await benchCase(db);
  // the sort and projection indexes a run earns are dropped, as list.ts drops them: both sides earn them again
  const earned = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and (indexname like ${`cdpx\\_${bench.entityId}\\_%`})`.execute(db);
  for (const { name } of earned.rows) await sql`drop index ${sql.id(name)}`.execute(db);
  const username = `bench_tenants_${Date.now()}`;
  const password = 'bench password of some length';
  const admin = await createEnvironmentAdmin(db, bench.environmentId, username, password);
  const server = await startServer({
    DATABASE_URL: url,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
    // the default level, as npm start runs it (a log line per request)
    LOG_LEVEL: 'info',
  });
  const headers = await signIn(server.address, username, password);
  const timedClient = keptAliveClient(headers);
  const send = (requestPath: string, body?: string) =>
    timedClient.send(`${server.address}${requestPath}`, body);
  return { label, url, db, server, headers, bench, admin, send };
}

/** Runs `run` on each side `rounds` times in turn (the side that goes first alternates); p50 / p95 of each. */
async function inTurn(sides: Side[], rounds: number, run: (side: Side) => Promise<void>) {
  const samples = sides.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (round + k) % sides.length;
      const started = performance.now();
      await run(sides[i]);
      samples[i].push(performance.now() - started);
    }
  }
  return samples.map((s) => {
    s.sort((x, y) => x - y);
    return { p50: percentile(s, 50), p95: percentile(s, 95) };
  });
}

/** (d): CONCURRENCY clients for `seconds` on one side (bench/load-clients.mjs). */
const load = (side: Side, seconds: number) =>
  loadClients(
    `${side.server.address}/api/contentdossier?${new URLSearchParams(listFilterA(side.bench))}`,
    side.headers.cookie,
    seconds,
    CONCURRENCY,
  );

const COMPARED_ITERATIONS = 1000;
const STEADY_WARMUP = 200;
const CONCURRENCY = 10;
const LOAD_SLICE_SECONDS = 5;
const LOAD_SLICES = 4;

async function main() {
  const tenants = arg('--tenants', 200);
  const keep = process.argv.includes('--keep');
  const alone = aloneUrl();

  // the copy alone: the bench database without other tenants, copied file by file
  {
    const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
    await migrate(db);
    const removed = await removeTenants(db);
    if (removed) console.log(`removed ${removed} other environments of an earlier run`);
    await settle(db);
    await db.destroy();
  }
  const copyStarted = performance.now();
  await onCluster(`drop database if exists ${databaseName(alone)}`);
  await onCluster(
    `create database ${databaseName(alone)} template ${databaseName(BENCH_URL)} strategy file_copy`,
  );
  console.log(`copied the bench database alone (${((performance.now() - copyStarted) / 1000).toFixed(0)} s)`);

  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  const started = performance.now();
  for (let n = 1; n <= tenants; n++) {
    await addTenant(db, n);
    if (n % 20 === 0 || n === tenants)
      console.log(
        `other environments: ${n} / ${tenants} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  const setUp = (performance.now() - started) / 1000;
  await settle(db);
  const counts = await sql<{ partitions: number; indexes: number; rows: number }>`select
    (select count(*)::int from pg_inherits i join pg_class p on p.oid = i.inhparent
      where p.relname = 'content_dossier' and p.relnamespace = current_schema()::regnamespace) as partitions,
    (select count(*)::int from pg_indexes where schemaname = current_schema() and indexname like 'cdx%') as indexes,
    (select count(*)::int from content_dossier d join environment e on e.id = d.environment_id
      where e.name like ${`${TENANT_PREFIX}%`}) as rows`.execute(db);
  await db.destroy();

  const sides = [await openSide('alone', alone), await openSide('beside others', BENCH_URL)];
  try {
    const listPath = (side: Side) => `/api/contentdossier?${new URLSearchParams(listFilterA(side.bench))}`;
    // warm-up, as list.ts's: the sort index that (a) earns by use built, the projection ready, then the
    // server's steady state
    for (const side of sides) {
      for (let i = 0; i < USES_BEFORE_BUILD + 5; i++) await side.send(listPath(side));
      await projectionReady(side.db, side.bench.entityId);
      await indexBuildsDone(side.db);
    }
    await inTurn(sides, STEADY_WARMUP, (side) => side.send(listPath(side)));
    const a = await inTurn(sides, COMPARED_ITERATIONS, (side) => side.send(listPath(side)));
    console.log(
      `(a) done: ${sides.map((s, i) => `${s.label} ${ms(a[i].p50)} / ${ms(a[i].p95)}`).join(', ')}`,
    );
    const create = (side: Side) => side.send('/api/contentdossier', createBodyC(side.bench));
    await inTurn(sides, STEADY_WARMUP / 4, create);
    const c = await inTurn(sides, COMPARED_ITERATIONS, create);
    console.log(
      `(c) done: ${sides.map((s, i) => `${s.label} ${ms(c[i].p50)} / ${ms(c[i].p95)}`).join(', ')}`,
    );

    // (d) in slices, alone / beside / beside / alone ..., after a warm-up slice each
    for (const side of sides) await load(side, LOAD_SLICE_SECONDS);
    const done = sides.map(() => 0);
    for (let slice = 0; slice < LOAD_SLICES; slice++) {
      for (let k = 0; k < sides.length; k++) {
        const i = slice % 2 === 0 ? k : sides.length - 1 - k;
        const result = await load(sides[i], LOAD_SLICE_SECONDS);
        if (result.failed) throw new Error(`(d) ${sides[i].label}: ${result.failed} requests failed`);
        done[i] += result.done;
      }
    }
    const rate = done.map((n) => n / (LOAD_SLICES * LOAD_SLICE_SECONDS));

    // (i) the page statement of (a), raw: its planning on a warm connection, and as the first statement
    // of a new connection (cold catalogue caches), in turn
    const statements = await Promise.all(
      sides.map(async (side) =>
        pageQuery(side.db, (await listParamsOfA(side.db, side.bench, side.admin)).params).compile(),
      ),
    );
    const planning = await Promise.all(
      sides.map(async (side, i) => {
        const client = new pg.Client({
          connectionString: side.url,
          options: `-c search_path=${BENCH_SCHEMA}`,
        });
        await client.connect();
        const times: number[] = [];
        for (let n = 0; n < 21; n++) {
          const plan = await client.query(
            `explain (analyze) ${statements[i].sql}`,
            statements[i].parameters as unknown[],
          );
          times.push(planningTimes(plan.rows));
        }
        await client.end();
        return percentile(
          times.sort((x, y) => x - y),
          50,
        );
      }),
    );
    const firstOf = sides.map(() => [] as number[]);
    for (let round = 0; round < 10; round++)
      for (const [i, side] of sides.entries()) {
        const client = new pg.Client({
          connectionString: side.url,
          options: `-c search_path=${BENCH_SCHEMA}`,
        });
        await client.connect();
        const start = performance.now();
        await client.query(statements[i].sql, statements[i].parameters as unknown[]);
        firstOf[i].push(performance.now() - start);
        await client.end();
      }
    for (const samples of firstOf) samples.sort((x, y) => x - y);

    console.log(
      `\nTenant scale: beside the bench environment ${counts.rows[0].partitions - 1} other environments with partitions, ` +
        `${counts.rows[0].indexes} field indexes, ${counts.rows[0].rows.toLocaleString('en')} dossiers of the others ` +
        `(set up in ${setUp.toFixed(0)} s); both sides timed in turn`,
    );
    const rows: [string, string, string, string][] = [
      [
        `(a) list 50, 2 filters, date sort (${COMPARED_ITERATIONS}x each): p50 / p95`,
        `${ms(a[0].p50)} / ${ms(a[0].p95)}`,
        `${ms(a[1].p50)} / ${ms(a[1].p95)}`,
        within(a[0].p95, a[1].p95),
      ],
      [
        `(c) create dossier (${COMPARED_ITERATIONS}x each): p50 / p95`,
        `${ms(c[0].p50)} / ${ms(c[0].p95)}`,
        `${ms(c[1].p50)} / ${ms(c[1].p95)}`,
        within(c[0].p95, c[1].p95),
      ],
      [
        `(d) ${CONCURRENCY} clients, query (a), ${LOAD_SLICES} slices of ${LOAD_SLICE_SECONDS} s each`,
        `${rate[0].toFixed(1)} requests/s`,
        `${rate[1].toFixed(1)} requests/s`,
        `${((rate[1] / rate[0] - 1) * 100).toFixed(0)}%`,
      ],
      [
        '(i) planning time of the page query (a), warm connection (21x): median',
        ms(planning[0]),
        ms(planning[1]),
        verdict(planning[1] < 2, '< 2 ms'),
      ],
      [
        '(i) page query (a) as the first statement on a new connection (10x): median / max',
        `${ms(percentile(firstOf[0], 50))} / ${ms(firstOf[0].at(-1) ?? Number.NaN)}`,
        `${ms(percentile(firstOf[1], 50))} / ${ms(firstOf[1].at(-1) ?? Number.NaN)}`,
        verdict(percentile(firstOf[1], 50) < 20, '< 20 ms'),
      ],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`${'figure'.padEnd(width)}  ${'alone'.padEnd(18)}  ${'beside others'.padEnd(18)}  target`);
    for (const [name, aloneFigure, beside, target] of rows)
      console.log(`${name.padEnd(width)}  ${aloneFigure.padEnd(18)}  ${beside.padEnd(18)}  ${target}`);
  } finally {
    for (const side of sides) {
      await stopServer(side.server);
      await side.db.destroy();
    }
  }
  if (!keep) {
    const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
    console.log(`removed ${await removeTenants(db)} other environments`);
    await db.destroy();
    await onCluster(`drop database if exists ${databaseName(alone)}`);
  }
}

function within(alone: number, beside: number) {
  const ratio = beside / alone;
  return verdict(ratio <= 1.15, `p95 within 15% of alone: ${((ratio - 1) * 100).toFixed(0)}%`);
}
const verdict = (ok: boolean, text: string) => `${ok ? 'ok  ' : 'MISS'} ${text}`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
