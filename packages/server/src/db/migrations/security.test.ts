import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// Two-factor sign-in, the environment's security policy and the sessions' details (issue 16, part 8):
// existing environments get the platform's rules, existing sessions a last use; down removes it all.
const FIRST = '2026-11-27T1120-two-factor-and-policy';
const SECOND = '2026-11-27T1130-session-details';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(FIRST);
  db = m.db;
});
afterAll(() => m.close());

const columns = async (table: string) =>
  (
    await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`.execute(db)
  ).rows.map((row) => row.column_name);

test('existing environments and sessions get the defaults, and down takes the columns away', async () => {
  const environment = await sql<{ id: number }>`
    insert into environment (name) values ('Before') returning id`.execute(db);
  const user = await sql<{ id: number }>`
    insert into app_user (username) values ('before_security') returning id`.execute(db);
  await sql`insert into user_session (user_id, expires_at)
    values (${user.rows[0].id}, now() + interval '1 day')`.execute(db);

  await m.migrateTo(SECOND);
  const policy = await sql<Record<string, unknown>>`
    select require_two_factor, password_min_length, password_complexity, session_hours
    from environment where id = ${environment.rows[0].id}`.execute(db);
  expect(policy.rows[0]).toEqual({
    require_two_factor: false,
    password_min_length: 8,
    password_complexity: false,
    session_hours: null,
  });
  const session = await sql<{ user_agent: string | null; last_used_at: Date | null; ends_at: Date | null }>`
    select user_agent, last_used_at, ends_at from user_session where user_id = ${user.rows[0].id}`.execute(
    db,
  );
  expect(session.rows[0].user_agent).toBeNull();
  expect(session.rows[0].last_used_at).toBeInstanceOf(Date);
  expect(session.rows[0].ends_at).toBeNull();
  expect(await columns('user_recovery_code')).toContain('code_hash');

  await m.migrateTo(m.previous);
  expect(await columns('user_recovery_code')).toEqual([]);
  expect(await columns('app_user')).not.toContain('otp_pending_secret');
  expect(await columns('environment')).not.toContain('require_two_factor');
  expect(await columns('user_session')).not.toContain('last_used_at');
  // and up again
  await m.migrateTo(SECOND);
  expect(await columns('user_session')).toContain('ends_at');
});
