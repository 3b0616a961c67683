import type { DefDossier } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { DefDossierTable } from '../../db/schema';

export type DefDossierRow = Selectable<DefDossierTable>;

/** The entity's name for messages: its first translation, else its id. */
export const entityName = (row: Pick<DefDossierRow, 'id' | 'translations'>) =>
  row.translations[0]?.name ?? `#${row.id}`;

export function presentDefDossier(row: DefDossierRow): DefDossier {
  return {
    id: row.id,
    uuid: row.uuid,
    environment_id: row.environment_id,
    type: row.type,
    rank: row.rank,
    visibility_roles: row.visibility_roles,
    archivable: row.archivable,
    translations: row.translations,
    settings: row.settings,
  };
}
