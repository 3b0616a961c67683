import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// The file-chunks migration moves every stored file's bytes into 256 KiB chunks and back.
const NAME = '2026-11-24T0910-file-chunks';
const CHUNK = 256 * 1024;
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

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

  await m.migrateTo(NAME);
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

  await m.migrateTo(m.previous);
  const restored = await sql<{ id: number; content: Uint8Array }>`
    select id, content from file order by id`.execute(db);
  expect(restored.rows.map((row) => Buffer.from(row.content))).toEqual(contents.slice(1));
});
