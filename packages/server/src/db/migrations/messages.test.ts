import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// Messages, their recipients and the subscription notices' clock: keyed by environment, a recipient's
// row goes with its message, and all of it goes again on the way down.
const NAME = '2026-11-28T1220-messages';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

const tables = async () =>
  (
    await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = current_schema()
      and table_name in ('message', 'message_recipient', 'subscription_notice') order by table_name`.execute(
      db,
    )
  ).rows.map((row) => row.table_name);

test('the message tables come with their keys and checks, and go again on the way down', async () => {
  expect(await tables()).toEqual([]);
  await m.migrateTo(NAME);
  expect(await tables()).toEqual(['message', 'message_recipient', 'subscription_notice']);
  const user = (
    await sql<{
      id: number;
    }>`insert into app_user (username, roles) values ('writer', '{ROLE_USER}') returning id`.execute(db)
  ).rows[0].id;
  const environment = (
    await sql<{
      id: number;
    }>`insert into environment (name, description) values ('E', 'e') returning id`.execute(db)
  ).rows[0].id;
  const message = (
    await sql<{
      id: number;
      type: string;
    }>`insert into message (environment_id, sender_id, title, message_text)
      values (${environment}, ${user}, 'Hi', '<p>Hi</p>') returning id, type`.execute(db)
  ).rows[0];
  expect(message.type).toBe('normal');
  await sql`insert into message_recipient (environment_id, message_id, user_id)
    values (${environment}, ${message.id}, ${user})`.execute(db);
  await expect(
    sql`insert into message (environment_id, title, message_text, type) values (${environment}, 'x', 'x', 'loud')`.execute(
      db,
    ),
  ).rejects.toThrow(/check constraint/);
  // a recipient of another environment's message is refused by the key
  const other = (
    await sql<{
      id: number;
    }>`insert into environment (name, description) values ('F', 'f') returning id`.execute(db)
  ).rows[0].id;
  await expect(
    sql`insert into message_recipient (environment_id, message_id, user_id) values (${other}, ${message.id}, ${user})`.execute(
      db,
    ),
  ).rejects.toThrow(/foreign key/);
  await sql`delete from message where id = ${message.id}`.execute(db);
  const left = await sql<{ n: number }>`select count(*)::int as n from message_recipient`.execute(db);
  expect(left.rows[0].n).toBe(0);
  await m.migrateTo(m.previous);
  expect(await tables()).toEqual([]);
});
