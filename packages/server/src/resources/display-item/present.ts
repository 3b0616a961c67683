import type { DisplayItem } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import { displayItemParts } from '../../db/display-item-parts';
import type { DisplayItemTable } from '../../db/schema';
import { childEntityAbilities } from '../../policy/display-item';
import type { EnvironmentAccess } from '../../policy/environment';
import { presentDataFields } from '../def-dossier-def-field/present';
import { presentLink } from '../def-dossier-link/present';

export type DisplayItemRow = Selectable<DisplayItemTable>;

/** Display items in the wire shape with their data field (and its base field) and link nested. */
export async function presentDisplayItems(db: Db, rows: DisplayItemRow[]): Promise<DisplayItem[]> {
  if (rows.length === 0) return [];
  const { dataFields: fieldRows, links: linkRows } = await displayItemParts(db, rows);
  const fields = new Map((await presentDataFields(db, fieldRows)).map((field) => [field.id, field]));
  const links = new Map(linkRows.map((link) => [link.id, presentLink(link)]));
  return rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    def_dossier_id: row.def_dossier_id,
    display_position_id: row.display_position_id,
    def_dossier_def_field:
      row.def_dossier_def_field_id === null ? null : (fields.get(row.def_dossier_def_field_id) ?? null),
    def_dossier_link: row.def_dossier_link_id === null ? null : (links.get(row.def_dossier_link_id) ?? null),
    view: row.view,
    col: row.col,
    rank: row.rank,
    colspan: row.colspan,
    rowspan: row.rowspan,
    roles: row.roles.map((id) => ({ role: { id } })),
    permissions_type: row.permissions_type,
    translations: row.translations,
    settings: row.settings,
  }));
}

export async function presentDisplayItem(db: Db, row: DisplayItemRow): Promise<DisplayItem> {
  const [presented] = await presentDisplayItems(db, [row]);
  return presented;
}

/**
 * Link items with the reader's abilities on their child entity (e.g. 'New' in the link picker needs
 * create there), for the answers that dossier screens read.
 */
export async function withChildAbilities(
  db: Db,
  access: EnvironmentAccess,
  items: DisplayItem[],
): Promise<DisplayItem[]> {
  const links = items.flatMap((item) => (item.def_dossier_link ? [item.def_dossier_link] : []));
  if (links.length === 0) return items;
  const abilities = await childEntityAbilities(db, access, links);
  return items.map((item) =>
    item.def_dossier_link
      ? {
          ...item,
          def_dossier_link: {
            ...item.def_dossier_link,
            child_abilities: abilities.get(item.def_dossier_link.child_def_dossier_id),
          },
        }
      : item,
  );
}
