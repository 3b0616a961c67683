import type { DefDossierDefField } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { DefDossierDefFieldTable } from '../../db/schema';

export type DataFieldRow = Selectable<DefDossierDefFieldTable>;

/** Data fields in the wire shape, each with its base field (one query for all of them). */
export async function presentDataFields(db: Db, rows: DataFieldRow[]): Promise<DefDossierDefField[]> {
  if (rows.length === 0) return [];
  const baseFields = await db
    .selectFrom('def_field')
    .select(['id', 'uuid', 'name', 'type', 'settings'])
    .where('id', 'in', [...new Set(rows.map((row) => row.def_field_id))])
    .execute();
  const byId = new Map(baseFields.map((field) => [field.id, field]));
  return rows.map((row) => {
    const base = byId.get(row.def_field_id);
    return {
      id: row.id,
      uuid: row.uuid,
      environment_id: row.environment_id,
      def_dossier_id: row.def_dossier_id,
      name: row.name,
      obligatory: row.obligatory,
      locked: row.locked,
      roles: row.roles,
      permissions_type: row.permissions_type,
      settings: row.settings,
      def_field: base
        ? { id: base.id, uuid: base.uuid, name: base.name, type: base.type, settings: base.settings }
        : { id: row.def_field_id, uuid: '', name: '', type: '', settings: {} },
    };
  });
}

export async function presentDataField(db: Db, row: DataFieldRow): Promise<DefDossierDefField> {
  const [presented] = await presentDataFields(db, [row]);
  return presented;
}
