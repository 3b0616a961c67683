// Dashboard blocks on the records benchmark's data (issue 20): a count_list_options block grouped by
// year_month and a sum_fields block over the 1,000,000 dossiers of the bench entity, through
// GET /api/mypageblock/{id}/data, beside the raw SQL of the same grouping. The blocks read the earned
// rollups (resources/dashboard/rollups.ts): the first request earns them (filled in the background),
// the benchmark waits until both are filled and prints how long that took. Usage (after generate.ts):
//   npx tsx bench/dashboard.ts
import { sql } from 'kysely';
import pg from 'pg';
import { BENCH_SCHEMA, BENCH_URL, openBench } from './generate';
import { createEnvironmentAdmin, ms, signIn, startServer, stopServer, timed } from './harness';

const ITERATIONS = 20;
const TARGET_P95_MS = 150;
const EARN_TIMEOUT_MS = 300_000;

async function main() {
  const { db, bench, fieldId } = await openBench();
  const [status, due, price] = await Promise.all((['status', 'due', 'price'] as const).map(fieldId));
  const username = `bench_dashboard_${Date.now()}`;
  const password = 'bench password of some length';
  await createEnvironmentAdmin(db, bench.environmentId, username, password);
  const blocks = {
    counts: await db
      .insertInto('mypage_block')
      .values({
        environment_id: bench.environmentId,
        type: 'count_list_options',
        def_dossier_id: bench.entityId,
        settings: { count_list_field: status, date_field: due, date_format: 'year_month' },
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
    sum: await db
      .insertInto('mypage_block')
      .values({
        environment_id: bench.environmentId,
        type: 'sum_fields',
        def_dossier_id: bench.entityId,
        settings: { sum_field: price },
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  };
  const server = await startServer({
    DATABASE_URL: BENCH_URL,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  });
  const raw = new pg.Client({ connectionString: BENCH_URL });
  await raw.connect();
  const lines: [string, string, string, string][] = [];
  let earned = '';
  try {
    const headers = await signIn(server.address, username, password);
    const get = (id: number) => async () => {
      const response = await fetch(`${server.address}/api/mypageblock/${id}/data`, { headers });
      if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    const schema = `"${BENCH_SCHEMA}"`;
    const where = `environment_id = ${bench.environmentId} and def_dossier_id = ${bench.entityId} and not archived`;
    const rawCounts = `select (case when ("values" ->> '${due}') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then to_char(cast(substr("values" ->> '${due}', 1, 10) as date), 'YYYY-MM') end), ("values" -> '${status}' #>> '{}'), count(*) from ${schema}.content_dossier where ${where} group by 1, 2 order by 1`;
    const rawSum = `select sum(("values" ->> '${price}')::numeric), count(*) from ${schema}.content_dossier where ${where}`;
    // The first requests earn the rollups of both groupings (a rollup the bench database had already
    // is kept: then this is the time of the two requests).
    const earning = performance.now();
    await get(blocks.counts.id)();
    await get(blocks.sum.id)();
    const rollups = () =>
      db
        .selectFrom('dashboard_rollup')
        .select(sql<string>`count(*)`.as('n'))
        .where('def_dossier_id', '=', bench.entityId)
        .where('ready', '=', true)
        .where((eb) =>
          eb.or([
            eb.and([eb('kind', '=', 'count'), eb('field_id', '=', status), eb('date_field_id', '=', due)]),
            eb.and([eb('kind', '=', 'sum'), eb('field_id', '=', price)]),
          ]),
        )
        .executeTakeFirstOrThrow();
    while (Number((await rollups()).n) < 2) {
      if (performance.now() - earning > EARN_TIMEOUT_MS)
        throw new Error('the rollups were not earned in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    earned = ms(performance.now() - earning);
    for (const [label, id, sqlText] of [
      ['count_list_options by year_month', blocks.counts.id, rawCounts],
      ['sum_fields', blocks.sum.id, rawSum],
    ] as const) {
      await get(id)();
      const http = await timed(ITERATIONS, get(id));
      const direct = await timed(ITERATIONS, async () => {
        await raw.query(sqlText);
      });
      lines.push([
        label,
        `${ms(http.p50)} / ${ms(http.p95)}`,
        `${ms(direct.p50)} / ${ms(direct.p95)}`,
        `p95 < ${TARGET_P95_MS} ms: ${http.p95 < TARGET_P95_MS ? 'PASS' : 'FAIL'}`,
      ]);
    }
  } finally {
    await raw.end();
    await stopServer(server);
    await db.deleteFrom('mypage_block').where('id', 'in', [blocks.counts.id, blocks.sum.id]).execute();
    await db.destroy();
  }
  console.log('\nDashboard blocks benchmark, 1,000,000 dossiers (HTTP over loopback, one client)');
  console.log(`rollups earned (first requests until both filled): ${earned}`);
  const row = (cells: string[]) =>
    console.log(`${cells[0].padEnd(36)}${cells[1].padEnd(26)}${cells[2].padEnd(26)}${cells[3]}`);
  row(['block', 'block p50 / p95', 'raw SQL p50 / p95', 'target']);
  for (const line of lines) row(line);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
