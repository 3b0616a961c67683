import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// The permission to export HTML was stored as 'export_hml'; the spec names it 'export_html'.
const NAME = '2026-11-25T1300-export-html-permission';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

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

  await m.migrateTo(NAME);
  expect(await storedActions()).toEqual([['show', 'export_html', 'export_pdf'], ['show']]);

  await m.migrateTo(m.previous);
  expect(await storedActions()).toEqual([['show', 'export_hml', 'export_pdf'], ['show']]);
});
