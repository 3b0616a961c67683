import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TEST_POSTGRES_URL, testDatabaseKind } from '../../../test/test-app';
import { type Db, dropSchema, openDatabase } from '../database';
import { migrations } from './index';

// The permission to export HTML was stored as 'export_hml'; the spec names it 'export_html'.
const NAME = '2026-11-25T1300-export-html-permission';
const previous = Object.keys(migrations)
  .filter((name) => name < NAME)
  .sort()
  .at(-1) as string;

let db: Db;
let schema: string | null = null;
const migrator = () =>
  new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
    migrationTableSchema: schema ?? 'public',
  });

beforeAll(async () => {
  if (testDatabaseKind() === 'postgres') {
    schema = `test_${randomBytes(6).toString('hex')}`;
    db = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, databaseSchema: schema, dataDir: '' });
  } else {
    db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: 'memory://' });
  }
  expect((await migrator().migrateTo(previous)).error).toBeUndefined();
});
afterAll(async () => {
  if (schema) await dropSchema(db, schema);
  await db.destroy();
});

const storedActions = async () =>
  (await sql<{ actions: string[] }>`select actions from permission order by id`.execute(db)).rows.map(
    (row) => row.actions,
  );

test("stored 'export_hml' permissions become 'export_html', and back down", async () => {
  const { rows } = await sql<{ id: number }>`
    insert into environment (name) values ('Permissions') returning id`.execute(db);
  const environmentId = rows[0].id;
  const entity = await sql<{ id: number }>`
    insert into def_dossier (environment_id, type) values (${environmentId}, 'main') returning id`.execute(
    db,
  );
  const roles: number[] = [];
  for (const name of ['Exporters', 'Readers']) {
    const role = await sql<{ id: number }>`
      insert into role (environment_id, name) values (${environmentId}, ${name}) returning id`.execute(db);
    roles.push(role.rows[0].id);
  }
  for (const [role, actions] of [
    [roles[0], ['show', 'export_hml', 'export_pdf']],
    [roles[1], ['show']],
  ] as const) {
    await sql`insert into permission (environment_id, def_dossier_id, role_id, actions)
      values (${environmentId}, ${entity.rows[0].id}, ${role}, cast(${actions as unknown as string[]} as text[]))`.execute(
      db,
    );
  }

  expect((await migrator().migrateTo(NAME)).error).toBeUndefined();
  expect(await storedActions()).toEqual([['show', 'export_html', 'export_pdf'], ['show']]);

  expect((await migrator().migrateTo(previous)).error).toBeUndefined();
  expect(await storedActions()).toEqual([['show', 'export_hml', 'export_pdf'], ['show']]);
});
