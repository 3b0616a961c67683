// Exports on the records benchmark's data (issue 18): a whole filtered list to CSV through the export
// call (rows per second, the server's peak resident memory), beside a raw COPY of the same rows to
// /dev/null through psql; and the PDF and Word of one dossier. Usage (after generate.ts):
//   npx tsx bench/export.ts
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Db } from '../packages/server/src/db/database';
import {
  buildDataField,
  buildDefField,
  buildDisplayItem,
  buildDisplayPosition,
} from '../packages/server/test/entity-factories';
import { buildDefDossier } from '../packages/server/test/factories';
import { BENCH_SCHEMA, BENCH_URL, openBench } from './generate';
import {
  createEnvironmentAdmin,
  listFilterA,
  ms,
  serverMemory,
  signIn,
  startServer,
  stopServer,
  timed,
} from './harness';

const run = promisify(execFile);
const PRICE_MIN = 0;
const PRICE_MAX = 5100;

async function main() {
  const { db, bench } = await openBench();
  const username = `bench_export_${Date.now()}`;
  const password = 'bench password of some length';
  await createEnvironmentAdmin(db, bench.environmentId, username, password);
  const server = await startServer({
    DATABASE_URL: BENCH_URL,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  });
  const lines: [string, string, string][] = [];
  let created: WideDossier | null = null;
  try {
    const headers = await signIn(server.address, username, password);
    // list (a)'s filters (a status, a price range) without its page, the price range widened to
    // 0-5,100 so that the list holds about 100,000 dossiers (issue 18's figure)
    const { limit: _limit, page: _page, ...filterA } = listFilterA(bench);
    const price = bench.listItem('price');
    const filter = { ...filterA, [`${price}_min`]: String(PRICE_MIN), [`${price}_max`]: String(PRICE_MAX) };
    const url = `${server.address}/api/contentdossier/export/csv?${new URLSearchParams(filter)}`;
    const before = serverMemory(server.child).rss;
    const started = performance.now();
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
    let bytes = 0;
    let rows = -1; // the header line
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) rows += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = serverMemory(server.child).peak;
    lines.push([
      `CSV of a whole list (${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB)`,
      `${Math.round(rows / seconds).toLocaleString('en')} rows/s (${seconds.toFixed(2)} s)`,
      'target >= 50,000 rows/s',
    ]);
    lines.push(['  server resident memory, peak', `${(peak / 1e6).toFixed(0)} MB`, 'target < 250 MB']);
    lines.push(['  server resident memory before the export', `${(before / 1e6).toFixed(0)} MB`, '']);

    // the same rows as raw COPY through psql (the limit)
    const status = bench.statusOption;
    const copy = `\\copy (select id, summary, "values"::text, created_by, created_at, modified_by, modified_at from "${BENCH_SCHEMA}".content_dossier where environment_id = ${bench.environmentId} and def_dossier_id = ${bench.entityId} and not archived and "values" -> '6' = '${status}'::jsonb and ("values" ->> '3')::numeric between ${PRICE_MIN} and ${PRICE_MAX} order by "values" ->> '5' desc, id desc) to '/dev/null' with csv`;
    const copyStarted = performance.now();
    await run('psql', [BENCH_URL, '-c', copy]);
    const copySeconds = (performance.now() - copyStarted) / 1000;
    lines.push(['  raw COPY of the same rows (psql, to /dev/null)', `${copySeconds.toFixed(2)} s`, '']);

    const one = await db
      .selectFrom('content_dossier')
      .select('id')
      .where('def_dossier_id', '=', bench.entityId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const wide = await buildWideDossier(db, bench.environmentId);
    created = wide;
    for (const [dossier, fieldCount] of [
      [Number(one.id), 10],
      [wide.dossierId, WIDE_FIELDS],
    ] as const)
      for (const kind of ['pdf', 'docx'] as const) {
        const get = async () => {
          const r = await fetch(`${server.address}/api/contentdossier/${dossier}/export/${kind}`, {
            headers,
          });
          if (r.status !== 200) throw new Error(`${kind}: ${r.status} ${await r.text()}`);
          await r.arrayBuffer();
        };
        for (let i = 0; i < 3; i++) await get();
        const times = await timed(20, get);
        lines.push([
          `${kind.toUpperCase()} of one dossier (${fieldCount} fields): p50 / p95`,
          `${ms(times.p50)} / ${ms(times.p95)}`,
          kind === 'pdf' && fieldCount === WIDE_FIELDS ? 'target < 300 ms' : '',
        ]);
      }
  } finally {
    await stopServer(server);
    if (created) await removeWideDossier(db, created);
    await db.destroy();
  }
  console.log('\nExport benchmark (1,000,000 dossiers, HTTP over loopback)');
  for (const [label, figure, target] of lines)
    console.log(`${label.padEnd(64)}${figure.padEnd(30)}${target}`);
}

const WIDE_FIELDS = 30;
const WIDE_TYPES = ['text', 'amount', 'date', 'textarea', 'email'] as const;
type WideDossier = Awaited<ReturnType<typeof buildWideDossier>>;

/** An entity of 30 fields on its page (text, amount, date, rich text, e-mail in turn), one dossier. */
async function buildWideDossier(db: Db, environmentId: number) {
  const entity = await buildDefDossier(db, environmentId, { name: `PDF bench ${Date.now()}` });
  const position = await buildDisplayPosition(db, entity, { name: 'General', type: 'main_content', rank: 1 });
  const values: Record<string, unknown> = {};
  const fieldIds: number[] = [];
  for (let i = 0; i < WIDE_FIELDS; i++) {
    const type = WIDE_TYPES[i % WIDE_TYPES.length];
    const base = await buildDefField(db, environmentId, { type, name: `Wide ${type} ${i + 1}` });
    const data = await buildDataField(db, entity, base.id, { name: `Wide ${type} ${i + 1}` });
    await buildDisplayItem(db, entity, { dataFieldId: data.id, positionId: position.id, rank: i + 1 });
    fieldIds.push(base.id);
    values[String(data.id)] = {
      text: `Text of field ${i + 1} of the wide dossier`,
      amount: 1234.5 * (i + 1),
      date: '2026-11-29',
      textarea: `<p>A paragraph of <b>rich text</b> for field ${i + 1}, long enough to wrap on the page of the PDF and the Word document.</p>`,
      email: `field${i + 1}@example.test`,
    }[type];
  }
  const dossier = await db
    .insertInto('content_dossier')
    .values({ environment_id: environmentId, def_dossier_id: entity.id, summary: 'Wide dossier', values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { entityId: entity.id, dossierId: Number(dossier.id), fieldIds };
}

async function removeWideDossier(db: Db, wide: WideDossier) {
  await db.deleteFrom('content_dossier').where('id', '=', wide.dossierId).execute();
  await db.deleteFrom('display_item').where('def_dossier_id', '=', wide.entityId).execute();
  await db.deleteFrom('display_position').where('def_dossier_id', '=', wide.entityId).execute();
  await db.deleteFrom('def_dossier_def_field').where('def_dossier_id', '=', wide.entityId).execute();
  await db.deleteFrom('def_field').where('id', 'in', wide.fieldIds).execute();
  await db.deleteFrom('def_dossier').where('id', '=', wide.entityId).execute();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
