import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// Role visibility moves onto the data field, derived from the items the field designer edits
// (show/edit, edit, show): each field is seen by the roles that saw it on at least one of them.
const NAME = '2026-11-25T1410-field-role-visibility';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

type Type = 'INCLUDE_SELECTED_ROLES' | 'EXCLUDE_SELECTED_ROLES';
const one = <T>(query: RawBuilder<T>) => m.one(query);

test('each data field gets the roles that see it on a dossier page; list items are not asked', async () => {
  const environment = await one(
    sql<{ id: number }>`insert into environment (name) values ('Roles') returning id`,
  );
  const entity = await one(
    sql<{
      id: number;
    }>`insert into def_dossier (environment_id, type) values (${environment.id}, 'main') returning id`,
  );
  const base = await one(
    sql<{
      id: number;
    }>`insert into def_field (environment_id, name, type) values (${environment.id}, 'text', 'text') returning id`,
  );
  const field = async (name: string, items: [view: string, type: Type, roles: number[]][]) => {
    const row = await one(sql<{
      id: number;
    }>`insert into def_dossier_def_field (environment_id, def_dossier_id, def_field_id, name)
      values (${environment.id}, ${entity.id}, ${base.id}, ${name}) returning id`);
    for (const [view, type, roles] of items)
      await sql`insert into display_item (environment_id, def_dossier_id, def_dossier_def_field_id, view, permissions_type, roles)
        values (${environment.id}, ${entity.id}, ${row.id}, ${view}, ${type}, cast(${roles} as integer[]))`.execute(
        db,
      );
    return row.id;
  };
  const ids = {
    // the defect: hidden on the dossier page, shown in the list
    hiddenFromOne: await field('a', [
      ['show/edit', 'EXCLUDE_SELECTED_ROLES', [1, 2]],
      ['list', 'EXCLUDE_SELECTED_ROLES', []],
    ]),
    forSome: await field('b', [
      ['show', 'INCLUDE_SELECTED_ROLES', [3]],
      ['edit', 'INCLUDE_SELECTED_ROLES', [4, 3]],
    ]),
    excludedByBoth: await field('c', [
      ['show', 'EXCLUDE_SELECTED_ROLES', [1, 2]],
      ['edit', 'EXCLUDE_SELECTED_ROLES', [2, 3]],
    ]),
    seenSomewhere: await field('d', [
      ['show', 'EXCLUDE_SELECTED_ROLES', [1]],
      ['edit', 'EXCLUDE_SELECTED_ROLES', []],
    ]),
    mixed: await field('e', [
      ['show', 'INCLUDE_SELECTED_ROLES', [1]],
      ['edit', 'EXCLUDE_SELECTED_ROLES', [2]],
    ]),
    listOnly: await field('f', [['list', 'INCLUDE_SELECTED_ROLES', [1]]]),
    open: await field('g', [['show/edit', 'EXCLUDE_SELECTED_ROLES', []]]),
  };

  // the entity has no summary items: its summaries fall back on a text field (here: the one now hidden)
  const dossier = await one(sql<{
    id: string;
  }>`insert into content_dossier (environment_id, def_dossier_id, summary)
    values (${environment.id}, ${entity.id}, 'a hidden value') returning id`);
  const other = await one(
    sql<{
      id: number;
    }>`insert into def_dossier (environment_id, type) values (${environment.id}, 'main') returning id`,
  );
  const untouched = await one(sql<{
    id: string;
  }>`insert into content_dossier (environment_id, def_dossier_id, summary)
    values (${environment.id}, ${other.id}, 'Acme') returning id`);

  await m.migrateTo(NAME);
  const { rows } = await sql<{ id: number; roles: number[]; permissions_type: Type }>`
    select id, roles, permissions_type from def_dossier_def_field order by id`.execute(db);
  const rule = (id: number) => {
    const row = rows.find((r) => r.id === id);
    return { roles: row?.roles, type: row?.permissions_type };
  };
  const open = { roles: [], type: 'EXCLUDE_SELECTED_ROLES' };
  expect(rule(ids.hiddenFromOne)).toEqual({ roles: [1, 2], type: 'EXCLUDE_SELECTED_ROLES' });
  expect(rule(ids.forSome)).toEqual({ roles: [3, 4], type: 'INCLUDE_SELECTED_ROLES' });
  expect(rule(ids.excludedByBoth)).toEqual({ roles: [2], type: 'EXCLUDE_SELECTED_ROLES' });
  expect(rule(ids.seenSomewhere)).toEqual(open);
  expect(rule(ids.mixed)).toEqual(open);
  expect(rule(ids.listOnly)).toEqual(open);
  expect(rule(ids.open)).toEqual(open);

  // the summaries are rewritten at the next start; until then they show the id
  const summaries = await sql<{
    id: string;
    summary: string;
  }>`select id, summary from content_dossier order by id`.execute(db);
  expect(summaries.rows).toEqual([
    { id: dossier.id, summary: `#${dossier.id}` },
    { id: untouched.id, summary: 'Acme' },
  ]);
  const noted = await sql<{ def_dossier_id: number }>`select def_dossier_id from summary_refresh`.execute(db);
  expect(noted.rows).toEqual([{ def_dossier_id: entity.id }]);

  await m.migrateTo(m.previous);
  const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = 'def_dossier_def_field' and column_name = 'roles'`.execute(
    db,
  );
  expect(columns.rows).toEqual([]);
});
