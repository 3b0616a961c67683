import { randomBytes } from 'node:crypto';
import type { PermissionAction } from '@dossierbase/core';
import type { Db } from '../src/db/database';

// Factories for the entity-configuration tables (spec document 3).

const unique = () => randomBytes(4).toString('hex');

export async function buildDefField(
  db: Db,
  environmentId: number,
  overrides: { type?: string; name?: string; settings?: Record<string, unknown>; rank?: number } = {},
) {
  return db
    .insertInto('def_field')
    .values({
      environment_id: environmentId,
      name: overrides.name ?? `field_${unique()}`,
      type: overrides.type ?? 'text',
      settings: overrides.settings ?? {},
      rank: overrides.rank ?? 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildListOption(
  db: Db,
  defFieldId: number,
  overrides: {
    text?: string;
    rank?: number;
    isDefault?: boolean;
    color?: string | null;
    roles?: number[];
    translations?: { culture: string; text: string }[];
  } = {},
) {
  const field = await db
    .selectFrom('def_field')
    .select('environment_id')
    .where('id', '=', defFieldId)
    .executeTakeFirstOrThrow();
  const text = overrides.text ?? `Option ${unique()}`;
  return db
    .insertInto('def_field_list')
    .values({
      environment_id: field.environment_id,
      def_field_id: defFieldId,
      color: overrides.color ?? null,
      rank: overrides.rank ?? 0,
      is_default: overrides.isDefault ?? false,
      translations: JSON.stringify(overrides.translations ?? [{ culture: 'en_GB', text }]),
      settings: { roles: overrides.roles ?? [] },
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A data field: the base field placed on an entity under a name. */
export async function buildDataField(
  db: Db,
  defDossier: { id: number; environment_id: number },
  defFieldId: number,
  overrides: {
    name?: string;
    obligatory?: boolean;
    locked?: boolean;
    settings?: Record<string, unknown>;
  } = {},
) {
  return db
    .insertInto('def_dossier_def_field')
    .values({
      environment_id: defDossier.environment_id,
      def_dossier_id: defDossier.id,
      def_field_id: defFieldId,
      name: overrides.name ?? `data_${unique()}`,
      obligatory: overrides.obligatory ?? false,
      locked: overrides.locked ?? false,
      settings: overrides.settings ?? {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildLink(
  db: Db,
  parent: { id: number; environment_id: number },
  child: { id: number },
  overrides: { name?: string; typeOfLink?: 'select' | 'embeddedList' } = {},
) {
  return db
    .insertInto('def_dossier_link')
    .values({
      environment_id: parent.environment_id,
      def_dossier_id: parent.id,
      child_def_dossier_id: child.id,
      back_link_id: null,
      name: overrides.name ?? `link_${unique()}`,
      type_of_link: overrides.typeOfLink ?? 'select',
      settings: {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildDisplayPosition(
  db: Db,
  defDossier: { id: number; environment_id: number },
  overrides: {
    type?: 'main_content' | 'tab' | 'meta' | 'footer' | 'hide';
    name?: string;
    rank?: number;
  } = {},
) {
  return db
    .insertInto('display_position')
    .values({
      environment_id: defDossier.environment_id,
      def_dossier_id: defDossier.id,
      type: overrides.type ?? 'tab',
      rank: overrides.rank ?? 0,
      view_name: null,
      translations: JSON.stringify([{ culture: 'en_GB', name: overrides.name ?? `Tab ${unique()}` }]),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A display item of a data field (or link) on the entity; no position unless given. */
export async function buildDisplayItem(
  db: Db,
  defDossier: { id: number; environment_id: number },
  overrides: {
    dataFieldId?: number | null;
    linkId?: number | null;
    positionId?: number | null;
    view?: string;
    roles?: number[];
    rank?: number;
    settings?: Record<string, unknown>;
  } = {},
) {
  return db
    .insertInto('display_item')
    .values({
      environment_id: defDossier.environment_id,
      def_dossier_id: defDossier.id,
      display_position_id: overrides.positionId ?? null,
      def_dossier_def_field_id: overrides.dataFieldId ?? null,
      def_dossier_link_id: overrides.linkId ?? null,
      view: overrides.view ?? 'show/edit',
      rank: overrides.rank ?? 1,
      roles: overrides.roles ?? [],
      translations: JSON.stringify([]),
      settings: overrides.settings ?? {},
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Shows a display item only to `roles` (INCLUDE_SELECTED_ROLES) or to everyone but them (EXCLUDE_). */
export function setItemRoles(
  db: Db,
  itemId: number,
  permissionsType: 'INCLUDE_SELECTED_ROLES' | 'EXCLUDE_SELECTED_ROLES',
  roles: number[],
) {
  return db
    .updateTable('display_item')
    .set({ permissions_type: permissionsType, roles })
    .where('id', '=', itemId)
    .execute();
}

export async function buildPermission(
  db: Db,
  defDossier: { id: number; environment_id: number },
  roleId: number,
  actions: PermissionAction[] = ['show'],
) {
  return db
    .insertInto('permission')
    .values({
      environment_id: defDossier.environment_id,
      def_dossier_id: defDossier.id,
      role_id: roleId,
      actions,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A dossier written straight into the table; values keyed by data-field id. */
export async function buildDossier(
  db: Db,
  defDossier: { id: number; environment_id: number },
  summary: string,
  values: Record<string, unknown> = {},
): Promise<number> {
  const row = await db
    .insertInto('content_dossier')
    .values({
      environment_id: defDossier.environment_id,
      def_dossier_id: defDossier.id,
      summary,
      values: JSON.stringify(values),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
