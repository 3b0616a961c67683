// Saved queries on the records benchmark's data (issue 17): the list call with a saved query of three
// field conditions, one with a link condition holding a field condition, and the editor's count over
// the whole entity with a relative-date condition, each beside the raw SQL of the same statement run
// directly through pg. Usage (after generate.ts): npx tsx bench/queries.ts
import { type QueryDocument, queryDocumentSchema } from '@dossierbase/core';
import pg from 'pg';
import { openEnvironment } from '../packages/server/src/policy/environment';
import { compileForUser } from '../packages/server/src/resources/dossier-query/service';
import { BENCH_SCHEMA, BENCH_URL, openBench } from './generate';
import { createEnvironmentAdmin, ms, signIn, startServer, stopServer, timed } from './harness';

const ITERATIONS = 100;

async function main() {
  const { db, bench, fieldId } = await openBench();
  const [price, due, status, hours] = await Promise.all(
    (['price', 'due', 'status', 'hours'] as const).map(fieldId),
  );
  const link = await db
    .selectFrom('def_dossier_link')
    .select('id')
    .where('def_dossier_id', '=', bench.entityId)
    .executeTakeFirstOrThrow();
  const group = (fields: unknown[], links: unknown[] = []) => ({
    combine: 'AND',
    fields,
    links,
    combinators: [],
  });
  const documents: Record<string, QueryDocument> = {
    three: queryDocumentSchema.parse({
      combinators: [
        group([
          { id: status, type: 'equals', value: bench.statusOption },
          { id: price, type: 'number_gte', value: 1000 },
          { id: hours, type: 'number_lt', value: 500 },
        ]),
      ],
    }),
    link: queryDocumentSchema.parse({
      combinators: [
        group(
          [{ id: status, type: 'equals', value: bench.statusOption }],
          [
            {
              id: link.id,
              combinators: [group([{ id: 'summary', type: 'string_exact_equals', value: 'Client 42' }])],
            },
          ],
        ),
      ],
    }),
    relative: queryDocumentSchema.parse({
      combinators: [group([{ id: due, type: 'date_subtract_max_months', value: 6 }])],
    }),
  };

  const username = `bench_queries_${Date.now()}`;
  const password = 'bench password of some length';
  const admin = await createEnvironmentAdmin(db, bench.environmentId, username, password);
  const saved: Record<string, number> = {};
  for (const [name, data] of Object.entries(documents)) {
    const row = await db
      .insertInto('dossier_query')
      .values({ environment_id: bench.environmentId, def_dossier_id: bench.entityId, data })
      .returning('id')
      .executeTakeFirstOrThrow();
    saved[name] = row.id;
  }

  const server = await startServer({
    DATABASE_URL: BENCH_URL,
    DATABASE_SCHEMA: BENCH_SCHEMA,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  });
  const { address } = server;
  try {
    const headers = await signIn(address, username, password);
    const listUrl = (name: string) =>
      `${address}/api/contentdossier?${new URLSearchParams({
        defDossier: String(bench.entityId),
        environment: String(bench.environmentId),
        limit: '50',
        dossierQuery: String(saved[name]),
      })}`;
    const get = async (url: string) => {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    const count = async (name: string) => {
      const response = await fetch(`${address}/api/dossierquery/count`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          environment: bench.environmentId,
          defDossier: bench.entityId,
          data: documents[name],
        }),
      });
      if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
      return ((await response.json()) as { items: number }).items;
    };

    // The same statements, compiled as the server compiles them, run directly through pg.
    const user = await db
      .selectFrom('app_user')
      .selectAll()
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    const access = await openEnvironment(db, user, bench.environmentId);
    const raw = new pg.Client({ connectionString: BENCH_URL });
    await raw.connect();
    await raw.query(`set search_path to "${BENCH_SCHEMA}"`);
    const rawStatement = async (name: string, kind: 'page' | 'count') => {
      const { condition } = await compileForUser(db, access, user, bench.entityId, documents[name]);
      const q = db
        .selectFrom('content_dossier')
        .where('environment_id', '=', bench.environmentId)
        .where('def_dossier_id', '=', bench.entityId)
        .where(condition);
      const compiled =
        kind === 'count'
          ? q.select((eb) => eb.fn.countAll().as('n')).compile()
          : q.selectAll().orderBy('id', 'desc').limit(50).compile();
      return () => raw.query(compiled.sql, [...compiled.parameters]).then(() => undefined);
    };

    const rows: [string, string, string][] = [];
    const line = (label: string, figure: string, target: string) => rows.push([label, figure, target]);
    for (const [name, label, target, iterations] of [
      ['three', 'list 50 with a saved query of three field conditions', 20, ITERATIONS],
      ['link', 'list 50 with a link condition holding a field condition', 50, ITERATIONS],
    ] as const) {
      for (let i = 0; i < 10; i++) await get(listUrl(name));
      const http = await timed(iterations, () => get(listUrl(name)));
      const page = await rawStatement(name, 'page');
      for (let i = 0; i < 5; i++) await page();
      const sqlTimes = await timed(iterations, page);
      line(`${label}: p50 / p95`, `${ms(http.p50)} / ${ms(http.p95)}`, `target p95 < ${target} ms`);
      line(
        `  raw SQL of the page: p50 / p95, ratio of p50`,
        `${ms(sqlTimes.p50)} / ${ms(sqlTimes.p95)}, ${(http.p50 / sqlTimes.p50).toFixed(1)}x`,
        '',
      );
    }
    const matches = await count('relative');
    const counted = await timed(20, async () => {
      await count('relative');
    });
    const rawCount = await rawStatement('relative', 'count');
    const rawCounted = await timed(20, rawCount);
    line(
      `count of the whole entity, due in the last 6 months (${matches.toLocaleString('en')} match): p50 / p95`,
      `${ms(counted.p50)} / ${ms(counted.p95)}`,
      'target < 300 ms',
    );
    line(
      '  raw SQL of the count: p50 / p95, ratio of p50',
      `${ms(rawCounted.p50)} / ${ms(rawCounted.p95)}, ${(counted.p50 / rawCounted.p50).toFixed(1)}x`,
      '',
    );
    await raw.end();
    console.log('\nSaved queries benchmark (1,000,000 dossiers, one client, HTTP over loopback)');
    for (const [label, figure, target] of rows)
      console.log(`${label.padEnd(92)}${figure.padEnd(28)}${target}`);
  } finally {
    await stopServer(server);
    await db.deleteFrom('dossier_query').where('id', 'in', Object.values(saved)).execute();
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
