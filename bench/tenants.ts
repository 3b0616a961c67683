// Tenant-scale benchmark (issue 14): does one environment's speed depend on the others? Runs the
// records benchmark (list.ts) on the bench schema alone, then adds OTHER environments, each with
// ENTITIES entities of FIELDS indexed fields (in the list view, so each gets its field index) and
// DOSSIERS dossiers per entity, runs list.ts again, removes them and runs it alone once more. This
// shared machine's speed moves by more than the 15 % criterion within minutes, so the run beside the
// others is judged against both runs alone around it, and the two alone runs show how far the machine
// itself moved meanwhile.
// Usage (after `npx tsx bench/generate.ts --count 1000000`):
//   npx tsx bench/tenants.ts                 # 200 other environments: 2,000 entities, 10,000 indexes
//   npx tsx bench/tenants.ts --tenants 20 --keep
// The other environments are removed at the end (and at the start, left from an earlier run) unless
// --keep is given.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { type Db, migrate, openDatabase } from '../packages/server/src/db/database';
import { syncFieldIndexes } from '../packages/server/src/query/field-indexes';
import { buildEnvironment } from '../packages/server/test/factories';
import { BENCH_SCHEMA, BENCH_URL } from './generate';

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

/** Runs list.ts and answers its printed rows (name -> value), echoing its output. */
function runList(label: string): Promise<Map<string, string>> {
  console.log(`\n--- list.ts, ${label} ---`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...process.execArgv, path.join(import.meta.dirname, 'list.ts')],
      { env: { ...process.env, BENCH_IDLE_SAMPLES: '1' }, maxBuffer: 64 * 2 ** 20 },
      (error, stdout, stderr) => {
        process.stdout.write(stdout);
        process.stderr.write(stderr);
        if (error) return reject(error);
        const rows = new Map<string, string>();
        for (const line of stdout.split('\n')) {
          const m = /^(\([a-z ]+\).*?)\s{2,}(\S.*)$/.exec(line);
          // the figure without the target list.ts prints beside it
          if (m) rows.set(m[1].trim(), m[2].replace(/\s{2,}target .*$/, '').trim());
        }
        resolve(rows);
      },
    );
  });
}

const number = (text: string | undefined, index = 0) =>
  Number((text ?? '').match(/[\d.]+/g)?.[index] ?? Number.NaN);

/**
 * The database as a product's is between bulk loads: the new partitions vacuumed and analysed, and no
 * autovacuum worker at work. Measured without this, the 600 new tables' autovacuum ran during the
 * second list.ts and slowed everything in it, raw SQL included ((k) raw 530 → 660 ms, create p95
 * 5.9 → 13.2 ms), which is the machine's work of the moment, not a cost of the other tenants.
 */
async function settle(db: Db) {
  const started = performance.now();
  for (const table of ['content_dossier', 'content_link', 'dossier_log'])
    await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where backend_type = 'autovacuum worker'`.execute(db);
    quiet = rows[0].n === 0 ? quiet + 1 : 0;
  }
  console.log(
    `vacuumed, analysed and no autovacuum at work (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}

async function main() {
  const tenants = arg('--tenants', 200);
  const keep = process.argv.includes('--keep');
  const db = await openDatabase({ databaseUrl: BENCH_URL, databaseSchema: BENCH_SCHEMA, dataDir: '' });
  await migrate(db);
  const removed = await removeTenants(db);
  if (removed) console.log(`removed ${removed} other environments of an earlier run`);

  await settle(db);
  const alone = await runList('the bench environment alone');

  const started = performance.now();
  for (let n = 1; n <= tenants; n++) {
    await addTenant(db, n);
    if (n % 20 === 0 || n === tenants)
      console.log(
        `other environments: ${n} / ${tenants} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
  const counts = await sql<{ partitions: number; indexes: number; rows: number }>`select
    (select count(*)::int from pg_inherits i join pg_class p on p.oid = i.inhparent
      where p.relname = 'content_dossier' and p.relnamespace = current_schema()::regnamespace) as partitions,
    (select count(*)::int from pg_indexes where schemaname = current_schema() and indexname like 'cdx%') as indexes,
    (select count(*)::int from content_dossier d join environment e on e.id = d.environment_id
      where e.name like ${`${TENANT_PREFIX}%`}) as rows`.execute(db);
  const setUp = (performance.now() - started) / 1000;
  await settle(db);
  const shared = await runList(`beside ${tenants} other environments`);
  if (!keep) console.log(`removed ${await removeTenants(db)} other environments`);
  await settle(db);
  const aloneAgain = keep ? null : await runList('the bench environment alone again');

  const compared: [name: string, target: (alone: number, other: number) => string, index?: number][] = [
    ['(a) list 50, 2 filters, date sort: p50 / p95', (a, o) => within(a, o), 1],
    ['(c) create dossier: p50 / p95', (a, o) => within(a, o), 1],
    ['(d) 10 clients, 10 s, query (a), after warm-up', () => ''],
    // the same work in both runs, for how fast the shared machine was at the time of each
    ['(d) CPU per request under load: server / PostgreSQL / load clients', () => ''],
    ['(e) raw SQL page query: p50 / p95', () => ''],
    ['(g) machine speed: fixed JS loop (1e8 iterations) at start / end', () => ''],
    ['(i) planning time of the page query (a), warm connection', (_, o) => verdict(o < 2, '< 2 ms')],
    [
      '(i) page query (a) as the first statement on a new connection (5x): median / max',
      (_, o) => verdict(o < 20, '< 20 ms'),
      0,
    ],
  ];
  console.log(
    `\nTenant scale: ${counts.rows[0].partitions} environments with partitions, ${counts.rows[0].indexes} field indexes, ` +
      `${counts.rows[0].rows.toLocaleString('en')} dossiers of the others (set up in ${setUp.toFixed(0)} s)`,
  );
  const width = Math.max(...compared.map(([name]) => name.length));
  console.log(
    `${'figure'.padEnd(width)}  ${'alone'.padEnd(16)}  ${'beside others'.padEnd(16)}  ${'alone again'.padEnd(16)}  target`,
  );
  for (const [name, target, index = 0] of compared) {
    const a = alone.get(name);
    const o = shared.get(name);
    const again = aloneAgain?.get(name);
    // beside the others against the mean of the runs alone before and after
    const aloneFigure =
      again === undefined ? number(a, index) : (number(a, index) + number(again, index)) / 2;
    console.log(
      `${name.padEnd(width)}  ${(a ?? '-').padEnd(16)}  ${(o ?? '-').padEnd(16)}  ${(again ?? '-').padEnd(16)}  ${target(aloneFigure, number(o, index))}`,
    );
  }
  if (aloneAgain) {
    const drift = (name: string, index: number) =>
      `${((number(aloneAgain.get(name), index) / number(alone.get(name), index) - 1) * 100).toFixed(0)}%`;
    console.log(
      `the machine between the two runs alone: (a) p95 ${drift(compared[0][0], 1)}, (c) p95 ${drift(compared[1][0], 1)}, ` +
        `raw page p50 ${drift('(e) raw SQL page query: p50 / p95', 0)}, JS loop ${drift('(g) machine speed: fixed JS loop (1e8 iterations) at start / end', 0)}`,
    );
  }
  await db.destroy();
}

function within(alone: number, other: number) {
  const ratio = other / alone;
  return verdict(ratio <= 1.15, `p95 within 15% of alone (mean of both): ${((ratio - 1) * 100).toFixed(0)}%`);
}
const verdict = (ok: boolean, text: string) => `${ok ? 'ok  ' : 'MISS'} ${text}`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
