import type { EntityAbilities } from '@dossierbase/core';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database';
import { displayItemParts } from '../db/display-item-parts';
import type {
  DefDossierDefFieldTable,
  DefDossierLinkTable,
  DefFieldListTable,
  DefFieldTable,
  DisplayItemTable,
} from '../db/schema';
import { entityAbilities } from './abilities';
import { configCached } from './config-cache';
import { entityInEnvironment, entityPermissions } from './entity';
import { type EnvironmentAccess, isEnvironmentAdmin } from './environment';
import { admitsRoleIds, admitsUser, type RoleRule } from './field-visibility';

export type DisplayItemRow = Selectable<DisplayItemTable>;
export type DataFieldRow = Selectable<DefDossierDefFieldTable>;
export type BaseFieldRow = Selectable<DefFieldTable>;
export type LinkRow = Selectable<DefDossierLinkTable>;
export type ListOptionRow = Selectable<DefFieldListTable>;

/** A display item the user may see, with the rows behind it. */
export interface VisibleItem {
  item: DisplayItemRow;
  /** the data field (def_dossier_def_field) for field items */
  dataField: DataFieldRow | null;
  /** the base field (def_field) of the data field: type and settings */
  field: BaseFieldRow | null;
  /** the link (def_dossier_link) for link items, as configured (may be a backlink) */
  link: LinkRow | null;
}

/** Role visibility of one item by its own roles (spec 2 section 5, "Visibility by role"); admins bypass. */
export const itemVisibleForRoles = (access: EnvironmentAccess, item: RoleRule) => admitsUser(access, item);

/** Role visibility of one item by its own roles, for a member holding these roles (not an admin). */
export const itemVisibleToRoleIds = (roleIds: ReadonlySet<number>, item: RoleRule) =>
  admitsRoleIds(roleIds, item);

/** Role restriction of a list option: hidden from users holding one of its roles; admins bypass. */
export function listOptionVisible(
  access: EnvironmentAccess,
  option: { settings: { roles?: number[] } },
): boolean {
  if (isEnvironmentAdmin(access)) return true;
  const roleIds = new Set(access.membership?.role_ids ?? []);
  return !(option.settings.roles ?? []).some((role) => roleIds.has(role));
}

/**
 * The list and tree options of the given base fields that the user may see, by rank; cached with the
 * configuration. Every dossier read, write and aggregation asks here.
 */
export function visibleListOptions(
  db: Db,
  access: EnvironmentAccess,
  defFieldIds: readonly number[],
): Promise<ListOptionRow[]> {
  const ids = [...new Set(defFieldIds)].sort((a, b) => a - b);
  if (ids.length === 0) return Promise.resolve([]);
  return configCached(access, `list-options:${ids.join(',')}`, async () => {
    const rows = await db
      .selectFrom('def_field_list')
      .selectAll()
      .where('environment_id', '=', access.environment.id)
      .where('def_field_id', 'in', ids)
      .orderBy('rank')
      .orderBy('id')
      .execute();
    return rows.filter((row) => listOptionVisible(access, row));
  });
}

/**
 * The display items of the entity in the given views that the user may see: role visibility of the
 * data field (in every view) and of the item, and for link items 'show' permission on the link's
 * child entity. Hidden items never leave
 * the server and may not be written. Ordered by position rank, item rank, col, id.
 */
export function visibleItems(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
  views: string[],
): Promise<VisibleItem[]> {
  if (views.length === 0) return Promise.resolve([]);
  return configCached(access, `visible-items:${defDossierId}:${views.join(',')}`, () =>
    readVisibleItems(db, access, defDossierId, views),
  );
}

async function readVisibleItems(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
  views: string[],
): Promise<VisibleItem[]> {
  const rows = await db
    .selectFrom('display_item as i')
    .leftJoin('display_position as p', 'p.id', 'i.display_position_id')
    .selectAll('i')
    .where('i.environment_id', '=', access.environment.id)
    .where('i.def_dossier_id', '=', defDossierId)
    .where('i.view', 'in', views)
    .orderBy('p.rank')
    .orderBy('i.rank')
    .orderBy('i.col')
    .orderBy('i.id')
    .execute();
  const roleVisible = rows.filter((row) => itemVisibleForRoles(access, row));
  const { dataFields, links } = await displayItemParts(db, roleVisible);
  const baseIds = [...new Set(dataFields.map((row) => row.def_field_id))];
  const baseFields = baseIds.length
    ? await db.selectFrom('def_field').selectAll().where('id', 'in', baseIds).execute()
    : [];
  const dataById = new Map(dataFields.map((row) => [row.id, row]));
  const baseById = new Map(baseFields.map((row) => [row.id, row]));
  const linkById = new Map(links.map((row) => [row.id, row]));

  // 'show' on the child entity decides whether a link item is visible.
  const childAbilities = await childEntityAbilities(db, access, links);

  const result: VisibleItem[] = [];
  for (const item of roleVisible) {
    const dataField =
      item.def_dossier_def_field_id === null ? null : (dataById.get(item.def_dossier_def_field_id) ?? null);
    if (dataField && !admitsUser(access, dataField)) continue;
    const link = item.def_dossier_link_id === null ? null : (linkById.get(item.def_dossier_link_id) ?? null);
    if (link && !childAbilities.get(linkChildEntity(link))?.canShow) continue;
    const field = dataField ? (baseById.get(dataField.def_field_id) ?? null) : null;
    result.push({ item, dataField, field, link });
  }
  return result;
}

/** Per child entity of these links: what the user may do with its dossiers. */
export async function childEntityAbilities(
  db: Db,
  access: EnvironmentAccess,
  links: readonly Pick<LinkRow, 'child_def_dossier_id'>[],
): Promise<Map<number, EntityAbilities>> {
  const abilities = new Map<number, EntityAbilities>();
  for (const child of new Set(links.map(linkChildEntity))) {
    const [entity, permissions] = await Promise.all([
      entityInEnvironment(db, access, child),
      entityPermissions(db, access, child),
    ]);
    abilities.set(child, entityAbilities({ entity, permissions }));
  }
  return abilities;
}

/** The entity on the far side of a link item (for a backlink row it is that row's child entity too). */
export const linkChildEntity = (link: Pick<LinkRow, 'child_def_dossier_id'>) => link.child_def_dossier_id;
