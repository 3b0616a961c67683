import type { DefField, DefFieldUsage, ListOption } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { DefFieldListTable, DefFieldTable } from '../../db/schema';
import { entityName } from '../def-dossier/present';

export type DefFieldRow = Selectable<DefFieldTable>;
export type ListOptionRow = Selectable<DefFieldListTable>;

export const presentListOption = (row: ListOptionRow): ListOption => ({
  id: row.id,
  uuid: row.uuid,
  def_field_id: row.def_field_id,
  color: row.color,
  rank: row.rank,
  default: row.is_default,
  translations: row.translations,
  settings: row.settings,
});

/** Every data field using each base field, with its entity; `placed` when a display item shows it. */
export async function defFieldUsage(db: Db, ids: readonly number[]): Promise<Map<number, DefFieldUsage[]>> {
  const usage = new Map<number, DefFieldUsage[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return usage;
  const rows = await db
    .selectFrom('def_dossier_def_field as ddf')
    .innerJoin('def_dossier as dd', 'dd.id', 'ddf.def_dossier_id')
    .select([
      'ddf.def_field_id',
      'ddf.id as field_id',
      'ddf.name as field_name',
      'dd.id',
      'dd.translations',
      sql<boolean>`exists (select 1 from display_item di where di.def_dossier_def_field_id = ddf.id)`.as(
        'placed',
      ),
    ])
    .where('ddf.def_field_id', 'in', ids)
    .orderBy('dd.rank')
    .orderBy('dd.id')
    .orderBy('ddf.name')
    .execute();
  for (const row of rows) {
    usage.get(row.def_field_id)?.push({
      def_dossier_id: row.id,
      def_dossier_name: entityName(row),
      def_dossier_def_field_id: row.field_id,
      def_dossier_def_field_name: row.field_name,
      placed: Boolean(row.placed),
    });
  }
  return usage;
}

/** Base fields in the wire shape, with their list options (by rank) and usage, one query each. */
export async function presentDefFields(db: Db, rows: readonly DefFieldRow[]): Promise<DefField[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [options, usage] = await Promise.all([
    db
      .selectFrom('def_field_list')
      .selectAll()
      .where('def_field_id', 'in', ids)
      .orderBy('rank')
      .orderBy('id')
      .execute(),
    defFieldUsage(db, ids),
  ]);
  return rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    environment_id: row.environment_id,
    name: row.name,
    type: row.type,
    settings: row.settings,
    rank: row.rank,
    def_field_lists: options.filter((o) => o.def_field_id === row.id).map(presentListOption),
    usage: usage.get(row.id) ?? [],
  }));
}

export async function presentDefField(db: Db, row: DefFieldRow): Promise<DefField> {
  const [presented] = await presentDefFields(db, [row]);
  return presented;
}
