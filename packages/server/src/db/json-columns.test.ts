import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { onPostgresServer, testPostgresUrl } from '../../test/test-app';
import { type Db, dropSchema, migrate, openDatabase } from './database';
import { JSON_COLUMNS, JsonColumnsPlugin } from './json-columns';

let db: Db;
let schema: string | null = null;

beforeAll(async () => {
  if (onPostgresServer()) {
    schema = `test_${randomBytes(6).toString('hex')}`;
    db = await openDatabase({ databaseUrl: testPostgresUrl(), databaseSchema: schema, dataDir: '' });
  } else {
    db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: 'memory://' });
  }
  await migrate(db);
});
afterAll(async () => {
  if (schema) await dropSchema(db, schema);
  await db.destroy();
});

test('JSON_COLUMNS names every jsonb column of the migrated schema, and nothing else', async () => {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and data_type = 'jsonb'`.execute(db);
  const actual = rows.map((r) => `${r.table_name}.${r.column_name}`).sort();
  const listed = Object.entries(JSON_COLUMNS)
    .flatMap(([table, columns]) => columns.map((column) => `${table}.${column}`))
    .sort();
  expect(listed).toEqual(actual);
});

test('arrays and objects are written to jsonb columns as JSON, on insert, update and upsert', async () => {
  const environment = await db
    .insertInto('environment')
    .values({
      name: `json-${randomBytes(3).toString('hex')}`,
      description: '',
      settings: { colours: ['red'] },
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // an empty array is where a PostgreSQL array literal would go wrong ('{}' is an object in JSON)
  const role = await db
    .insertInto('role')
    .values({ environment_id: environment.id, name: 'clerk', translations: [] })
    .returning(['id', 'translations'])
    .executeTakeFirstOrThrow();
  expect(role.translations).toEqual([]);

  const translations = [{ culture: 'nl_NL', name: 'Medewerker' }];
  const updated = await db
    .updateTable('role')
    .set({ translations })
    .where('id', '=', role.id)
    .returning('translations')
    .executeTakeFirstOrThrow();
  expect(updated.translations).toEqual(translations);

  const stored = await sql<{
    kind: string;
  }>`select jsonb_typeof(translations) as kind from role where id = ${role.id}`.execute(db);
  expect(stored.rows[0].kind).toBe('array');
  const settings = await db
    .selectFrom('environment')
    .select('settings')
    .where('id', '=', environment.id)
    .executeTakeFirstOrThrow();
  expect(settings.settings).toEqual({ colours: ['red'] });
});

test('text already serialised passes through unchanged, and real array columns stay arrays', async () => {
  const user = await db
    .insertInto('app_user')
    .values({
      username: `json-${randomBytes(3).toString('hex')}`,
      roles: ['ROLE_USER'],
      private_settings: '{"presence":"away"}',
    })
    .returning(['roles', 'private_settings'])
    .executeTakeFirstOrThrow();
  expect(user.roles).toEqual(['ROLE_USER']);
  expect(user.private_settings).toEqual({ presence: 'away' });
});

test('a write inside a CTE or a raw statement is serialised too; a select passes untouched', async () => {
  const environment = await db
    .insertInto('environment')
    .values({ name: `json-${randomBytes(3).toString('hex')}`, description: '', settings: {} })
    .returning('id')
    .executeTakeFirstOrThrow();
  const inCte = await db
    .with('made', (w) =>
      w
        .insertInto('role')
        .values({ environment_id: environment.id, name: 'in cte', translations: [] })
        .returning('id'),
    )
    .selectFrom('made')
    .select('id')
    .executeTakeFirstOrThrow();
  const translations = [{ culture: 'en_GB', name: 'Raw' }];
  await sql`${db.updateTable('role').set({ translations }).where('id', '=', inCte.id)}`.execute(db);
  const stored = await db
    .selectFrom('role')
    .select('translations')
    .where('id', '=', inCte.id)
    .executeTakeFirstOrThrow();
  expect(stored.translations).toEqual(translations);

  const select = db.selectFrom('role').select('id').where('name', '=', 'x').toOperationNode();
  const plugin = new JsonColumnsPlugin();
  expect(plugin.transformQuery({ node: select, queryId: { queryId: 'q' } })).toBe(select);
});
