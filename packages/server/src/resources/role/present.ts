import type { Selectable } from 'kysely';
import type { RoleTable } from '../../db/schema';

export type RoleRow = Selectable<RoleTable>;

/** Wire shape of a role on /api/role (core's Role plus what the editor needs). */
export interface RoleDetail {
  id: number;
  environment_id: number;
  name: string;
  translations: { culture: string; name: string }[];
}

export const presentRole = (row: RoleRow): RoleDetail => ({
  id: row.id,
  environment_id: row.environment_id,
  name: row.name,
  translations: row.translations,
});
