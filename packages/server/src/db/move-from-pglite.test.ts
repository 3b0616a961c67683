import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { buildDossier, buildLink } from '../../test/entity-factories';
import { buildDefDossier, buildEnvironment, buildUser } from '../../test/factories';
import { testDatabaseKind } from '../../test/test-app';
import { loadConfig } from '../config';
import { type Db, migrate, pgliteDataDir } from './database';
import {
  type EmbeddedCluster,
  embeddedClusterDir,
  movedPgliteDir,
  openConfiguredDatabase,
} from './embedded-postgres';

// A data directory of an earlier version, with its database in PGlite, moves to the embedded
// PostgreSQL at start. Runs once per test run, in the embedded project.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dossierbase-pglite-move-'));
let cluster: EmbeddedCluster | null = null;
afterAll(async () => {
  await cluster?.stop();
  // PGlite still makes its directory once more, unawaited, just after it is closed
  await new Promise((resolve) => setTimeout(resolve, 500));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every table's rows as one digest each (a row's JSON text, sorted), with the count. */
async function contents(db: Db) {
  await sql`set timezone = 'UTC'`.execute(db);
  const { rows: tables } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname not like 'kysely%'
    order by 1`.execute(db);
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ digest: string }>`
      select count(*) || ' ' || md5(coalesce(string_agg(row_to_json(t)::text, E'\\n' order by row_to_json(t)::text), '')) as digest
      from ${sql.id(name)} t`.execute(db);
    digests[name] = rows[0].digest;
  }
  return digests;
}

/** Two tenants' worth of what a PGlite directory of an earlier version holds. */
async function tenant(db: Db, name: string) {
  const user = await buildUser(db);
  const environment = await buildEnvironment(db, { name, members: [{ user }] });
  const entity = await buildDefDossier(db, environment.id);
  const link = await buildLink(db, entity, entity);
  const ids = [];
  for (let n = 0; n < 5; n += 1)
    ids.push(await buildDossier(db, entity, `${name} ${n}`, { 1: n, 2: `${name} text ${n}` }));
  await db
    .insertInto('content_link')
    .values([
      { environment_id: environment.id, link_id: link.id, parent_id: ids[0], child_id: ids[1], rank: 0 },
      { environment_id: environment.id, link_id: link.id, parent_id: ids[0], child_id: ids[2], rank: 1 },
    ])
    .execute();
  await db
    .insertInto('dossier_log')
    .values(
      ids.map((id) => ({
        environment_id: environment.id,
        content_dossier_id: id,
        def_dossier_id: entity.id,
        type: 'create' as const,
        user_id: user.id,
        username: user.username,
        changes: JSON.stringify([]),
      })),
    )
    .execute();
  const file = await db
    .insertInto('file')
    .values({
      environment_id: environment.id,
      name: `${name}.bin`,
      mime: 'application/octet-stream',
      size: 4,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('file_chunk')
    .values({
      environment_id: environment.id,
      file_id: file.id,
      seq: 0,
      bytes: Buffer.from([0, 1, 254, 255]),
    })
    .execute();
  return { environment: environment.id, entity: entity.id, ids };
}

test('a data directory of an earlier version moves to the embedded PostgreSQL unless asked to stay', () => {
  const old = mkdtempSync(path.join(os.tmpdir(), 'dossierbase-pglite-data-'));
  try {
    mkdirSync(path.join(old, 'pgdata'));
    expect(loadConfig({ DATA_DIR: old }).embeddedDatabase).toBe('postgres');
    expect(loadConfig({ DATA_DIR: old, EMBEDDED_DATABASE: 'pglite' }).embeddedDatabase).toBe('pglite');
    expect(() => loadConfig({ DATA_DIR: old, EMBEDDED_DATABASE: 'mysql' })).toThrow(/EMBEDDED_DATABASE/);
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
});

test.skipIf(testDatabaseKind() !== 'embedded')(
  'every row, link, log entry, file byte, sequence and earned index moves, each tenant still in its partition',
  async () => {
    const config = { databaseUrl: null, databaseSchema: null, dataDir, embeddedDatabase: 'pglite' as const };
    const earlier = await openConfiguredDatabase(config);
    await migrate(earlier.db);
    const one = await tenant(earlier.db, 'One');
    const two = await tenant(earlier.db, 'Two');
    // an index the server earned by use, on one tenant's partition
    await sql`create index cdx_moved on ${sql.id(`content_dossier_e${one.environment}`)} ((values ->> '2'), id) where def_dossier_id = ${sql.lit(one.entity)}`.execute(
      earlier.db,
    );
    const before = await contents(earlier.db);
    await earlier.db.destroy();
    // a move stopped half-way left its cluster directory: it starts over
    mkdirSync(path.join(dataDir, 'postgres.moving'));
    writeFileSync(path.join(dataDir, 'postgres.moving', 'PG_VERSION'), 'half-way');

    const moved = await openConfiguredDatabase({ ...config, embeddedDatabase: 'postgres' });
    cluster = moved.cluster;
    const { db } = moved;
    expect(cluster).not.toBeNull();
    expect(existsSync(embeddedClusterDir(dataDir))).toBe(true);
    expect(existsSync(movedPgliteDir(dataDir))).toBe(true);
    expect(existsSync(pgliteDataDir(dataDir))).toBe(false);
    expect(existsSync(path.join(dataDir, 'postgres.moving'))).toBe(false);
    await migrate(db);
    expect(await contents(db)).toEqual(before);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([`content_dossier_e${one.environment}`, 'file_chunk', 'entity_dossier_count']),
    );

    // each tenant's dossiers, links and log entries in its own partition
    for (const { environment, ids } of [one, two]) {
      const { rows } = await sql<{ dossiers: number; links: number; logs: number }>`
        select (select count(*) from ${sql.id(`content_dossier_e${environment}`)} where id = any(${ids})) as dossiers,
          (select count(*) from ${sql.id(`content_link_e${environment}`)}) as links,
          (select count(*) from ${sql.id(`dossier_log_e${environment}`)}) as logs`.execute(db);
      expect(rows[0]).toEqual({ dossiers: 5, links: 2, logs: 5 });
    }
    const bytes = await db
      .selectFrom('file_chunk')
      .select('bytes')
      .where('environment_id', '=', two.environment)
      .executeTakeFirstOrThrow();
    expect([...bytes.bytes]).toEqual([0, 1, 254, 255]);
    // the earned index, and the sequences where they were: a new dossier takes the next id
    const index =
      await sql`select 1 from pg_indexes where tablename = ${`content_dossier_e${one.environment}`} and indexdef like '%(("values" ->> ''2''::text)), id)%'`.execute(
        db,
      );
    expect(index.rows).toHaveLength(1);
    const next = await buildDossier(db, { id: two.entity, environment_id: two.environment }, 'Two new');
    expect(next).toBeGreaterThan(Math.max(...one.ids, ...two.ids));
    // triggers run again after the move: the counters see the new dossier
    const counted = await db
      .selectFrom('entity_dossier_count')
      .select('total')
      .where('def_dossier_id', '=', two.entity)
      .where('archived', '=', false)
      .executeTakeFirstOrThrow();
    expect(Number(counted.total)).toBe(6);
    await db.destroy();
  },
  120_000,
);
