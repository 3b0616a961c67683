import { type EntityPermission, PERMISSION_ACTIONS, type PermissionAction } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { PermissionTable } from '../../db/schema';

export type PermissionRow = Selectable<PermissionTable>;

export const presentPermission = (row: PermissionRow): EntityPermission => ({
  id: row.id,
  def_dossier_id: row.def_dossier_id,
  role_id: row.role_id,
  // In the catalogue's order, whatever order they were stored in.
  actions: PERMISSION_ACTIONS.filter((action) => row.actions.includes(action)) as PermissionAction[],
});
