import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// The index that answers "has this user opened this dossier within the hour": on dossier_log and on
// each environment's partition of it, and gone again on the way down.
const NAME = '2026-11-28T1100-dossier-log-shown';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

const indexesOn = async (table: string) =>
  (
    await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${table} order by indexname`.execute(db)
  ).rows.map((row) => row.name);

test('the index is made on the log and each partition, and dropped on the way down', async () => {
  const { rows } = await sql<{ id: number }>`
    insert into environment (name) values ('Logged') returning id`.execute(db);
  const partition = `dossier_log_e${rows[0].id}`;
  expect(await indexesOn('dossier_log')).not.toContain('dossier_log_user_idx');
  await m.migrateTo(NAME);
  expect(await indexesOn('dossier_log')).toContain('dossier_log_user_idx');
  expect((await indexesOn(partition)).some((name) => name.includes('user_id'))).toBe(true);
  await m.migrateTo(m.previous);
  expect(await indexesOn('dossier_log')).not.toContain('dossier_log_user_idx');
  expect((await indexesOn(partition)).some((name) => name.includes('user_id'))).toBe(false);
});
