import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// Orders of a contract admin: a table of its own, with its checks, and gone again on the way down.
const NAME = '2026-11-27T1110-subscription-order';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

const hasTable = async () =>
  (
    await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
    where table_schema = current_schema() and table_name = 'subscription_order'`.execute(db)
  ).rows[0].n === 1;

test('the order table comes with its checks and goes again on the way down', async () => {
  expect(await hasTable()).toBe(false);
  await m.migrateTo(NAME);
  const { rows } = await sql<{ id: number }>`
    insert into app_user (username, roles) values ('holder', '{ROLE_USER,ROLE_CONTRACT_ADMIN}') returning id`.execute(
    db,
  );
  const user = rows[0].id;
  const order = await sql<{ status: string; note: string }>`
    insert into subscription_order (user_id, max_environments, max_users, months)
    values (${user}, 2, null, 12) returning status, note`.execute(db);
  expect(order.rows).toEqual([{ status: 'requested', note: '' }]);
  for (const values of [
    sql`(${user}, 0, 1, 12, 'requested')`,
    sql`(${user}, 1, 0, 12, 'requested')`,
    sql`(${user}, 1, 1, 0, 'requested')`,
    sql`(${user}, 1, 1, 12, 'paid')`,
  ]) {
    await expect(
      sql`insert into subscription_order (user_id, max_environments, max_users, months, status)
        values ${values}`.execute(db),
    ).rejects.toThrow(/check constraint/);
  }
  await m.migrateTo(m.previous);
  expect(await hasTable()).toBe(false);
});
