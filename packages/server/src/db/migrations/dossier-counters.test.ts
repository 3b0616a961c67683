import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore, type MigrationDb } from '../../../test/migration-db';
import type { Db } from '../database';

// The counters start from what is stored: every entity's dossiers and the options of its list and
// tree fields are counted once by the migration, then kept by the triggers.
const NAME = '2026-11-25T1600-dossier-counters';
let m: MigrationDb;
let db: Db;
beforeAll(async () => {
  m = await databaseBefore(NAME);
  db = m.db;
});
afterAll(() => m.close());

const one = <T>(query: RawBuilder<T>) => m.one(query);

test('counts the stored dossiers and options, then keeps counting, and goes back down', async () => {
  const environment = await one(
    sql<{ id: number }>`insert into environment (name) values ('Counted') returning id`,
  );
  const entity = await one(
    sql<{
      id: number;
    }>`insert into def_dossier (environment_id, type) values (${environment.id}, 'main') returning id`,
  );
  const dataField = async (type: string) => {
    const base = await one(
      sql<{
        id: number;
      }>`insert into def_field (environment_id, name, type) values (${environment.id}, ${type}, ${type}) returning id`,
    );
    return (
      await one(sql<{
        id: number;
      }>`insert into def_dossier_def_field (environment_id, def_dossier_id, def_field_id, name)
        values (${environment.id}, ${entity.id}, ${base.id}, ${type}) returning id`)
    ).id;
  };
  const [list, tree, text] = [await dataField('list'), await dataField('tree'), await dataField('text')];
  const dossier = (values: Record<number, unknown>, archived = false) =>
    sql`insert into content_dossier (environment_id, def_dossier_id, summary, archived, "values")
      values (${environment.id}, ${entity.id}, 'x', ${archived}, ${JSON.stringify(values)})`.execute(db);
  await dossier({ [list]: 7, [tree]: [3, 4], [text]: 'free text' });
  await dossier({ [list]: 7, [tree]: [3] });
  await dossier({ [list]: 8 }, true);

  await m.migrateTo(NAME);
  const counts = () =>
    sql<{ field_id: number; archived: boolean; many: boolean; option_id: string; total: string }>`
      select field_id, archived, many, option_id::text, total::text from option_count
      where def_dossier_id = ${entity.id} order by 1, 2, 3, 4`.execute(db);
  expect((await counts()).rows).toEqual([
    { field_id: list, archived: false, many: false, option_id: '-1', total: '2' },
    { field_id: list, archived: false, many: false, option_id: '7', total: '2' },
    { field_id: list, archived: true, many: false, option_id: '-1', total: '1' },
    { field_id: list, archived: true, many: false, option_id: '8', total: '1' },
    { field_id: tree, archived: false, many: false, option_id: '-1', total: '2' },
    { field_id: tree, archived: false, many: true, option_id: '3', total: '2' },
    { field_id: tree, archived: false, many: true, option_id: '4', total: '1' },
  ]);
  const totals = () =>
    sql<{ archived: boolean; total: string }>`select archived, total::text from entity_dossier_count
      where def_dossier_id = ${entity.id} order by 1`.execute(db);
  expect((await totals()).rows).toEqual([
    { archived: false, total: '2' },
    { archived: true, total: '1' },
  ]);
  // the triggers go on from there
  await dossier({ [list]: 8 });
  expect((await totals()).rows[0]).toEqual({ archived: false, total: '3' });
  expect((await counts()).rows).toContainEqual({
    field_id: list,
    archived: false,
    many: false,
    option_id: '8',
    total: '1',
  });

  await m.migrateTo(m.previous);
  const left = await sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_name in ('option_count', 'option_count_field', 'entity_dossier_count')`.execute(
    db,
  );
  expect(left.rows).toEqual([]);
});
