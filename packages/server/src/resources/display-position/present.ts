import type { DisplayPosition } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { DisplayPositionTable } from '../../db/schema';

export type PositionRow = Selectable<DisplayPositionTable>;

export const presentPosition = (row: PositionRow): DisplayPosition => ({
  id: row.id,
  uuid: row.uuid,
  def_dossier_id: row.def_dossier_id,
  type: row.type,
  hide: row.hide,
  rank: row.rank,
  view_name: row.view_name,
  translations: row.translations,
});
