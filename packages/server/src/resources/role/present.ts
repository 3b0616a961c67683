import type { RoleDetail } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { RoleTable } from '../../db/schema';

export type RoleRow = Selectable<RoleTable>;

export const presentRole = (row: RoleRow): RoleDetail => ({
  id: row.id,
  environment_id: row.environment_id,
  name: row.name,
  translations: row.translations,
});
