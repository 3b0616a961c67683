import type { DisplayCustomView } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { DisplayCustomViewTable } from '../../db/schema';

export type CustomViewRow = Selectable<DisplayCustomViewTable>;

export const presentCustomView = (row: CustomViewRow): DisplayCustomView => ({
  id: row.id,
  view_name: row.view_name,
  def_dossier_id: row.def_dossier_id,
});
