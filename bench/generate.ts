// Fills the `bench` schema of PostgreSQL with one environment, one entity of N dossiers with ten
// fields of mixed types, a link entity and N link rows. Usage:
//   npx tsx bench/generate.ts --count 1000000
// The writing part (fillBenchData) takes any migrated database, PGlite too (bench/embedded.ts).
// BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/dossierbase_bench, created when
// missing), BENCH_SCHEMA (default bench).
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, dropSchema, migrate, openDatabase } from '../packages/server/src/db/database';
import { syncFieldIndexes } from '../packages/server/src/query/field-indexes';

// A database of its own: pg_trgm lives in the schema that first creates it, so a bench schema in
// the test database would take the extension away from (or keep it from) the test schemas.
export const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/dossierbase_bench';
export const BENCH_SCHEMA = process.env.BENCH_SCHEMA ?? 'bench';
export const BENCH_ENVIRONMENT = 'Bench environment';

/** The ten fields: name, base type, settings. */
export const BENCH_FIELDS = [
  ['title', 'text', {}],
  ['city', 'text', {}],
  ['price', 'amount', {}],
  ['hours', 'amount', {}],
  ['due', 'date', {}],
  ['status', 'list', {}],
  ['owner', 'user', {}],
  ['email', 'email', {}],
  ['number', 'autoIncrement', {}],
  ['notes', 'textarea', {}],
] as const;

function argCount(): number {
  const i = process.argv.indexOf('--count');
  const n = i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;
  if (!Number.isSafeInteger(n) || n < 1) throw new Error('--count must be a positive whole number');
  return n;
}

async function main() {
  const count = argCount();
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const log = (message: string) => console.log(`[${elapsed()}] ${message}`);

  const url = new URL(BENCH_URL);
  const database = decodeURIComponent(url.pathname.slice(1));
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(BENCH_URL), { pathname: '/postgres' }).toString(),
  });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await admin.query(`create database "${database.replace(/"/g, '""')}"`);
  await admin.end();
  const setup = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  // The bench database is ours alone: start from no extension so the migration puts pg_trgm in
  // the bench schema, where its opclasses resolve.
  await sql`drop extension if exists pg_trgm cascade`.execute(setup);
  await dropSchema(setup, BENCH_SCHEMA);
  await setup.destroy();
  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  await migrate(db);
  log(`schema ${BENCH_SCHEMA} migrated`);
  await fillBenchData(db, count, log);
  await db.destroy();
}

export interface BenchData {
  environmentId: number;
  /** the entity 'Case' of `count` dossiers */
  entityId: number;
  clientEntityId: number;
}

/**
 * Writes the bench data into a migrated, empty database: ten users, the environment, the entities
 * 'Case' (ten fields in the list and show/edit views) and 'Client', `count` cases and their link
 * rows, then the GIN indexes, VACUUM (ANALYZE) and the field indexes. Runs on PostgreSQL and on
 * PGlite (one connection: syncFieldIndexes builds without CONCURRENTLY there). `log` gets the
 * progress lines.
 */
export async function fillBenchData(
  db: Db,
  count: number,
  log: (message: string) => void = console.log,
): Promise<BenchData> {
  const users = await db
    .insertInto('app_user')
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        username: `bench_user_${i}`,
        email: `bench_user_${i}@example.test`,
        password_hash: null,
        first_name: 'Bench',
        last_name: `User ${i}`,
        roles: ['ROLE_USER'],
        locale: null,
        private_settings: {},
        otp_secret: null,
      })),
    )
    .returning('id')
    .execute();
  const environment = await db
    .insertInto('environment')
    .values({
      name: BENCH_ENVIRONMENT,
      description: 'benchmark data',
      active: true,
      logo: null,
      logo_mime: null,
      apply_template: null,
      settings: {},
      created_by: null,
      modified_by: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('environment_user')
    .values(
      users.map((u) => ({ environment_id: environment.id, user_id: u.id, credentials: [], role_ids: [] })),
    )
    .execute();
  const entity = (name: string) =>
    db
      .insertInto('def_dossier')
      .values({
        environment_id: environment.id,
        type: 'main',
        visibility_roles: [],
        translations: JSON.stringify([{ culture: 'en_GB', name, name_singular: name, name_plural: name }]),
        settings: {},
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  const cases = await entity('Case');
  const clients = await entity('Client');

  const dataIds: Record<string, number> = {};
  let optionIds: number[] = [];
  for (const [name, type, settings] of BENCH_FIELDS) {
    const base = await db
      .insertInto('def_field')
      .values({ environment_id: environment.id, name: `bench_${name}`, type, settings })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (type === 'list') {
      const options = await db
        .insertInto('def_field_list')
        .values(
          [1, 2, 3, 4, 5].map((n) => ({
            environment_id: environment.id,
            def_field_id: base.id,
            color: null,
            rank: n,
            translations: JSON.stringify([{ culture: 'en_GB', text: `Status ${n}` }]),
            settings: {},
          })),
        )
        .returning('id')
        .execute();
      optionIds = options.map((o) => o.id);
    }
    const data = await db
      .insertInto('def_dossier_def_field')
      .values({
        environment_id: environment.id,
        def_dossier_id: cases.id,
        def_field_id: base.id,
        name,
        settings: {},
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    dataIds[name] = data.id;
    for (const view of ['list', 'show/edit', 'summary'].slice(0, name === 'title' ? 3 : 2)) {
      await db
        .insertInto('display_item')
        .values({
          environment_id: environment.id,
          def_dossier_id: cases.id,
          display_position_id: null,
          def_dossier_def_field_id: data.id,
          def_dossier_link_id: null,
          view,
          roles: [],
          translations: JSON.stringify([{ culture: 'en_GB', name }]),
          settings: {},
        })
        .execute();
    }
  }
  const link = await db
    .insertInto('def_dossier_link')
    .values({
      environment_id: environment.id,
      def_dossier_id: cases.id,
      child_def_dossier_id: clients.id,
      back_link_id: null,
      name: 'client',
      type_of_link: 'select',
      settings: {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('display_item')
    .values({
      environment_id: environment.id,
      def_dossier_id: cases.id,
      display_position_id: null,
      def_dossier_def_field_id: null,
      def_dossier_link_id: link.id,
      view: 'list',
      roles: [],
      translations: JSON.stringify([{ culture: 'en_GB', name: 'client' }]),
      settings: {},
    })
    .execute();
  log('configuration written');

  const clientCount = Math.max(10, Math.min(10_000, Math.floor(count / 100)));
  await sql`insert into content_dossier (environment_id, def_dossier_id, summary, "values")
    select ${environment.id}, ${clients.id}, 'Client ' || g, '{}'::jsonb from generate_series(1, ${clientCount}) g`.execute(
    db,
  );
  const userIds = users.map((u) => u.id);
  // Bulk load without the GIN indexes, built once afterwards (same definitions as the migration).
  await sql`drop index content_dossier_values_idx`.execute(db);
  await sql`drop index content_dossier_summary_trgm_idx`.execute(db);
  const key = (name: string) => String(dataIds[name]);
  const batch = 100_000;
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1);
    await sql`insert into content_dossier
        (environment_id, def_dossier_id, summary, archived, "values", created_by, modified_by, created_at, modified_at)
      select ${environment.id}, ${cases.id}, 'Case ' || g || ' ' || left(md5(g::text), 8), g % 50 = 0,
        jsonb_build_object(
          ${key('title')}::text, 'Case ' || left(md5(g::text), 12),
          ${key('city')}::text, 'City ' || (g % 997),
          ${key('price')}::text, round((random() * 10000)::numeric, 2),
          ${key('hours')}::text, g % 500,
          ${key('due')}::text, to_char(date '2020-01-01' + (g % 2500)::int, 'YYYY-MM-DD'),
          ${key('status')}::text, (${optionIds}::int[])[1 + g % 5],
          ${key('owner')}::text, (${userIds}::int[])[1 + g % 10],
          ${key('email')}::text, 'case' || g || '@example.test',
          ${key('number')}::text, g,
          ${key('notes')}::text, '<p>Notes about case ' || g || '</p>'
        ),
        (${userIds}::int[])[1 + g % 10], (${userIds}::int[])[1 + g % 10],
        now() - make_interval(mins => g::int), now() - make_interval(mins => g::int)
      from generate_series(${start}::bigint, ${end}::bigint) g`.execute(db);
    log(`dossiers ${end.toLocaleString('en')} / ${count.toLocaleString('en')}`);
  }
  const bounds = await db
    .selectFrom('content_dossier')
    .select([sql<number>`min(id)`.as('min'), sql<number>`max(id)`.as('max')])
    .where('def_dossier_id', '=', cases.id)
    .executeTakeFirstOrThrow();
  const firstClient = await db
    .selectFrom('content_dossier')
    .select(sql<number>`min(id)`.as('min'))
    .where('def_dossier_id', '=', clients.id)
    .executeTakeFirstOrThrow();
  for (let start = Number(bounds.min); start <= Number(bounds.max); start += batch) {
    const end = Math.min(Number(bounds.max), start + batch - 1);
    await sql`insert into content_link (environment_id, link_id, parent_id, child_id)
      select ${environment.id}, ${link.id}, d.id, ${Number(firstClient.min)}::bigint + d.id % ${clientCount}
      from content_dossier d where d.def_dossier_id = ${cases.id} and d.id between ${start} and ${end}`.execute(
      db,
    );
  }
  log(`${count.toLocaleString('en')} link rows`);
  await sql`create index content_dossier_values_idx on content_dossier using gin ("values" jsonb_path_ops)`.execute(
    db,
  );
  const trgm = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  await sql`create index content_dossier_summary_trgm_idx on content_dossier using gin (summary ${sql.id(trgm.rows[0].schema, 'gin_trgm_ops')})`.execute(
    db,
  );
  log('GIN indexes rebuilt');
  // VACUUM as well as ANALYZE: a table that has lived a while has its visibility map and hint bits
  // set by autovacuum. Without it the first benchmark after generating read the heap for every
  // index-only scan and ran beside autovacuum's first pass (exact count 319 instead of about 240 ms).
  await sql`vacuum (analyze)`.execute(db);
  log('vacuumed and analyzed');
  const { created } = await syncFieldIndexes(db, cases.id);
  log(`field indexes: ${created.join(', ')}`);
  await sql`analyze content_dossier`.execute(db);
  log(`done: entity ${cases.id}, ${count.toLocaleString('en')} dossiers`);
  return { environmentId: environment.id, entityId: cases.id, clientEntityId: clients.id };
}

export type BenchFieldName = (typeof BENCH_FIELDS)[number][0];

/** The ids of the bench data that requests send (list.ts, embedded.ts). */
export interface BenchCase {
  environmentId: number;
  entityId: number;
  /** the display item of a field in the list view (filters, sorts, aggregations) */
  listItem: (name: BenchFieldName) => number;
  /** the display item of a field in the show/edit view (the keys of a create body) */
  editItem: (name: BenchFieldName) => number;
  /** the second option (by rank) of the status list */
  statusOption: number;
}

/** Reads the ids of the bench environment (the first one named BENCH_ENVIRONMENT) and its entity Case. */
export async function benchCase(db: Db): Promise<BenchCase> {
  const environment = await db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', BENCH_ENVIRONMENT)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const entity = await db
    .selectFrom('def_dossier')
    .select('id')
    .where('environment_id', '=', environment.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const items = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as dd', 'dd.id', 'i.def_dossier_def_field_id')
    .select(['i.id', 'i.view', 'dd.name'])
    .where('i.def_dossier_id', '=', entity.id)
    .execute();
  const item = (view: string) => (name: BenchFieldName) => {
    const found = items.find((i) => i.name === name && i.view === view);
    if (!found) throw new Error(`bench display item ${view} ${name} missing`);
    return found.id;
  };
  const option = await db
    .selectFrom('def_field_list')
    .select('id')
    .where('environment_id', '=', environment.id)
    .orderBy('rank')
    .offset(1)
    .limit(1)
    .executeTakeFirstOrThrow();
  return {
    environmentId: environment.id,
    entityId: entity.id,
    listItem: item('list'),
    editItem: item('show/edit'),
    statusOption: option.id,
  };
}

/**
 * The bench database, migrated as a deployment would migrate it, with the bench case's ids and a
 * lookup of the bench entity's data fields by name (for benchmarks that name fields in documents).
 */
export async function openBench() {
  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  await migrate(db);
  const bench = await benchCase(db);
  const fieldId = async (name: BenchFieldName) =>
    (
      await db
        .selectFrom('def_dossier_def_field')
        .select('id')
        .where('def_dossier_id', '=', bench.entityId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  return { db, bench, fieldId };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
