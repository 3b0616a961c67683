import type { Db } from '../../db/database';

/**
 * Where display items place a data field or link, for refusals such as
 * 'Placed in General (edit), list view': a positioned item names its position and view, an item
 * without a position names its view.
 */
export async function placementsOf(
  db: Db,
  column: 'def_dossier_def_field_id' | 'def_dossier_link_id',
  ids: number[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('display_item')
    .leftJoin('display_position', 'display_position.id', 'display_item.display_position_id')
    .select([
      'display_item.id',
      'display_item.view',
      'display_position.type as position_type',
      'display_position.translations as position_translations',
    ])
    .where(`display_item.${column}`, 'in', ids)
    .orderBy('display_position.rank')
    .orderBy('display_item.view')
    .orderBy('display_item.id')
    .execute();
  const described = rows.map((row) => {
    if (!row.position_type) return `${row.view} view`;
    const name = row.position_translations?.find((t) => t.name)?.name ?? row.position_type;
    return `${name} (${row.view})`;
  });
  return [...new Set(described)];
}

export const placedMessage = (base: string, placements: string[]) =>
  `${base}. Placed in ${placements.join(', ')}`;
