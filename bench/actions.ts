// Bulk actions on the records benchmark's data (issue 18): archive 1,000 selected dossiers as the bulk
// bar does (POST /api/contentdossier/archive with 250 ids a call) and a mass update of 1,000 dossiers (one PUT).
// The 1,000 dossiers are the benchmark's own: created here in the bench entity and deleted afterwards
// with their log, so the generated million stay as they are. Usage (after generate.ts):
// npx tsx bench/actions.ts
import { sql } from 'kysely';
import { loadConfig } from '../packages/server/src/config';
import { migrate, openDatabase } from '../packages/server/src/db/database';
import { BENCH_SCHEMA, BENCH_URL, benchCase } from './generate';
import { createEnvironmentAdmin, signIn, startServer, stopServer } from './harness';

const COUNT = 1000;
const MARK = `bench actions ${Date.now()}`;

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
  await migrate(db);
  const bench = await benchCase(db);
  const environment_id = bench.environmentId;
  const username = `bench_actions_${Date.now()}`;
  const password = 'bench password of some length';
  const admin = await createEnvironmentAdmin(db, environment_id, username, password);
  const entity = await db
    .selectFrom('def_dossier')
    .select('archivable')
    .where('id', '=', bench.entityId)
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < COUNT; i += 500) {
    const rows = await db
      .insertInto('content_dossier')
      .values(
        Array.from({ length: Math.min(500, COUNT - i) }, (_, n) => ({
          environment_id,
          def_dossier_id: bench.entityId,
          values: {},
          summary: `${MARK} ${i + n}`,
          summaries: {},
          created_by: admin.id,
          modified_by: admin.id,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => Number(r.id)));
  }
  // archive needs an archivable entity: so for the run, as it was afterwards
  await db.updateTable('def_dossier').set({ archivable: true }).where('id', '=', bench.entityId).execute();
  const server = await startServer({
    DATABASE_URL: BENCH_URL,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
  });
  const lines: [string, string, string][] = [];
  try {
    const headers = await signIn(server.address, username, password);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.address}${path}`, {
        method,
        headers,
        body: JSON.stringify(body ?? {}),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    };
    // the bar's way: the selection in calls of 250 (list-api.ts runBulk), one transaction each
    const bulk = async (path: 'archive' | 'dearchive') => {
      for (let i = 0; i < ids.length; i += 250)
        await call('POST', `/api/contentdossier/${path}`, {
          environment: environment_id,
          ids: ids.slice(i, i + 250),
        });
    };
    await call('POST', '/api/contentdossier/archive', { environment: environment_id, ids: ids.slice(0, 5) });
    await call('POST', '/api/contentdossier/dearchive', {
      environment: environment_id,
      ids: ids.slice(0, 5),
    });
    let started = performance.now();
    await bulk('archive');
    const archiveMs = performance.now() - started;
    lines.push([
      `bulk archive of ${COUNT} selected (the bar: 4 calls of 250)`,
      `${archiveMs.toFixed(0)} ms`,
      'target < 2000 ms',
    ]);
    started = performance.now();
    await bulk('dearchive');
    lines.push([`  and their dearchive`, `${(performance.now() - started).toFixed(0)} ms`, '']);
    // for comparison, one call per dossier (the spec's client), on the first 100
    started = performance.now();
    for (const id of ids.slice(0, 100)) await call('POST', `/api/contentdossier/${id}/archive`);
    lines.push([
      '  one POST /api/contentdossier/{id}/archive per dossier, 100 in turn',
      `${(performance.now() - started).toFixed(0)} ms`,
      '',
    ]);
    await call('POST', '/api/contentdossier/dearchive', {
      environment: environment_id,
      ids: ids.slice(0, 100),
    });

    const update = (value: string) =>
      call('PUT', '/api/contentdossier/massupdate', {
        overwrite: true,
        defDossier: bench.entityId,
        dossier_ids: ids,
        update_values: { [bench.editItem('title')]: value, [bench.editItem('status')]: bench.statusOption },
      });
    await update('warm up');
    const massStarted = performance.now();
    await update('mass updated');
    const massMs = performance.now() - massStarted;
    lines.push([
      `mass update of ${COUNT} (title and status, one PUT)`,
      `${massMs.toFixed(0)} ms`,
      'target < 3000 ms',
    ]);
    const changed = await db
      .selectFrom('content_dossier')
      .select(sql<number>`count(*)`.as('n'))
      .where('environment_id', '=', environment_id)
      .where('id', 'in', ids)
      .where(
        sql<string>`"values" ->> ${String((await titleField(db, bench.entityId)) ?? '')}`,
        '=',
        'mass updated',
      )
      .executeTakeFirstOrThrow();
    lines.push(['  dossiers holding the new title', String(changed.n), `${COUNT}`]);
    console.log(
      `\nBulk actions benchmark (${COUNT} of the bench entity's dossiers, one client, HTTP over loopback)`,
    );
    for (const [label, figure, target] of lines)
      console.log(`${label.padEnd(70)}${figure.padEnd(12)}${target}`);
  } finally {
    await stopServer(server);
    await db
      .updateTable('def_dossier')
      .set({ archivable: entity.archivable })
      .where('id', '=', bench.entityId)
      .execute();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await db
        .deleteFrom('dossier_log')
        .where('environment_id', '=', environment_id)
        .where('content_dossier_id', 'in', chunk)
        .execute();
      await db
        .deleteFrom('content_dossier')
        .where('environment_id', '=', environment_id)
        .where('id', 'in', chunk)
        .execute();
    }
    await db.deleteFrom('environment_user').where('user_id', '=', admin.id).execute();
    await db
      .deleteFrom('app_user')
      .where('id', '=', admin.id)
      .execute()
      .catch(() => undefined);
    await db.destroy();
  }
}

async function titleField(db: Awaited<ReturnType<typeof openDatabase>>, entityId: number) {
  const row = await db
    .selectFrom('def_dossier_def_field')
    .select('id')
    .where('def_dossier_id', '=', entityId)
    .where('name', '=', 'title')
    .executeTakeFirst();
  return row?.id;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
