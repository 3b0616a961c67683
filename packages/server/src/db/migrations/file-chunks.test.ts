import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TEST_POSTGRES_URL, testDatabaseKind } from '../../../test/test-app';
import { type Db, dropSchema, openDatabase } from '../database';
import { migrations } from './index';

// The file-chunks migration moves every stored file's bytes into 256 KiB chunks and back.
const NAME = '2026-11-24T0910-file-chunks';
const CHUNK = 256 * 1024;
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

test('existing files move into chunks of 256 KiB, and back down', async () => {
  const sizes = [1, CHUNK, 2 * CHUNK + 5];
  const contents = sizes.map((size) => randomBytes(size));
  const { rows } = await sql<{ id: number }>`
    insert into environment (name) values ('Files') returning id`.execute(db);
  const environmentId = rows[0].id;
  const ids: number[] = [];
  for (const content of contents) {
    const file = await sql<{ id: number }>`
      insert into file (environment_id, name, mime, size, content)
      values (${environmentId}, 'f', 'application/octet-stream', ${content.length}, ${content})
      returning id`.execute(db);
    ids.push(file.rows[0].id);
  }

  expect((await migrator().migrateTo(NAME)).error).toBeUndefined();
  for (const [i, id] of ids.entries()) {
    const chunks = await db
      .selectFrom('file_chunk')
      .select(['seq', 'bytes', 'environment_id'])
      .where('file_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(chunks.map((c) => c.seq)).toEqual([...Array(Math.ceil(sizes[i] / CHUNK)).keys()]);
    expect(chunks.every((c) => c.environment_id === environmentId)).toBe(true);
    expect(Buffer.concat(chunks.map((c) => Buffer.from(c.bytes))).equals(contents[i])).toBe(true);
  }
  // Chunks go with their file.
  await db.deleteFrom('file').where('id', '=', ids[0]).execute();
  expect(await db.selectFrom('file_chunk').select('seq').where('file_id', '=', ids[0]).execute()).toEqual([]);

  const down = await migrator().migrateTo(previous);
  expect(down.error).toBeUndefined();
  const restored = await sql<{ id: number; content: Uint8Array }>`
    select id, content from file order by id`.execute(db);
  expect(restored.rows.map((row) => Buffer.from(row.content))).toEqual(contents.slice(1));
});
