import type { DefDossierLink } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { DefDossierLinkTable } from '../../db/schema';

export type LinkRow = Selectable<DefDossierLinkTable>;

export const presentLink = (row: LinkRow): DefDossierLink => ({
  id: row.id,
  uuid: row.uuid,
  environment_id: row.environment_id,
  def_dossier_id: row.def_dossier_id,
  child_def_dossier_id: row.child_def_dossier_id,
  back_link_id: row.back_link_id,
  name: row.name,
  type_of_link: row.type_of_link,
  cascade_rule: row.cascade_rule,
  archive_cascade_rule: row.archive_cascade_rule,
  obligatory: row.obligatory,
  locked: row.locked,
  disable_backlink: row.disable_backlink,
  settings: row.settings,
});
