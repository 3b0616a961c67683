import { ROLE_USAGE_MEMBERS, type RoleUsage } from '@dossierbase/core';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { entityName } from '../def-dossier/present';
import type { RoleRow } from './present';

// Where a role is named: the members holding it, permissions, the menu visibility of entities, the
// visibility of data fields and display items, and list options hidden for it. Read to refuse a
// delete (and say why), and to take the role out of all of them before a delete that asks for it.

const roleArray = (row: RoleRow) => sql`array[${row.id}]::integer[]`;
const roleJson = (row: RoleRow) => sql`${JSON.stringify([row.id])}::jsonb`;

type EntityRef = RoleUsage['permissions'][number];
const entityRef = (row: { def_dossier_id: number; translations: EntityRef['translations'] }): EntityRef => ({
  id: row.def_dossier_id,
  translations: row.translations,
});

/** Every place that names the role; empty lists when it is free to go. */
export async function findRoleUsage(db: Db, row: RoleRow): Promise<RoleUsage> {
  const environmentId = row.environment_id;
  const holders = db
    .selectFrom('environment_user')
    .where('environment_user.environment_id', '=', environmentId)
    .where(sql<boolean>`environment_user.role_ids @> ${roleArray(row)}`);
  const [members, memberCount, permissions, visibility, dataFields, items, options] = await Promise.all([
    holders
      .innerJoin('app_user', 'app_user.id', 'environment_user.user_id')
      .select(['app_user.id', 'app_user.username'])
      .orderBy('app_user.username')
      .limit(ROLE_USAGE_MEMBERS)
      .execute(),
    holders.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
    db
      .selectFrom('permission')
      .innerJoin('def_dossier', 'def_dossier.id', 'permission.def_dossier_id')
      .select(['def_dossier.id as def_dossier_id', 'def_dossier.translations'])
      .where('permission.environment_id', '=', environmentId)
      .where('permission.role_id', '=', row.id)
      // a permission without actions grants nothing: it goes with the role
      .where(sql<boolean>`cardinality(permission.actions) > 0`)
      .orderBy('def_dossier.rank')
      .orderBy('def_dossier.id')
      .execute(),
    db
      .selectFrom('def_dossier')
      .select(['id as def_dossier_id', 'translations'])
      .where('environment_id', '=', environmentId)
      .where(sql<boolean>`visibility_roles @> ${roleArray(row)}`)
      .orderBy('rank')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('def_dossier_def_field as f')
      .innerJoin('def_dossier', 'def_dossier.id', 'f.def_dossier_id')
      .select(['f.id', 'f.name', 'f.def_dossier_id', 'def_dossier.translations'])
      .where('f.environment_id', '=', environmentId)
      .where(sql<boolean>`f.roles @> ${roleArray(row)}`)
      .orderBy('def_dossier.rank')
      .orderBy('f.def_dossier_id')
      .orderBy('f.name')
      .execute(),
    db
      .selectFrom('display_item as i')
      .innerJoin('def_dossier', 'def_dossier.id', 'i.def_dossier_id')
      .leftJoin('def_dossier_def_field as f', 'f.id', 'i.def_dossier_def_field_id')
      .leftJoin('def_dossier_link as l', 'l.id', 'i.def_dossier_link_id')
      .select([
        'i.id',
        'i.view',
        'i.def_dossier_id',
        'def_dossier.translations',
        sql<string>`coalesce(f.name, l.name, '')`.as('name'),
      ])
      .where('i.environment_id', '=', environmentId)
      .where(sql<boolean>`i.roles @> ${roleArray(row)}`)
      .orderBy('def_dossier.rank')
      .orderBy('i.def_dossier_id')
      .orderBy('i.id')
      .execute(),
    db
      .selectFrom('def_field_list as o')
      .innerJoin('def_field', 'def_field.id', 'o.def_field_id')
      .select([
        'o.id',
        'def_field.id as def_field_id',
        'def_field.name as def_field_name',
        sql<string>`coalesce(o.translations->0->>'text', '')`.as('text'),
      ])
      .where('o.environment_id', '=', environmentId)
      .where(sql<boolean>`o.settings->'roles' @> ${roleJson(row)}`)
      .orderBy('def_field.name')
      .orderBy('o.rank')
      .orderBy('o.id')
      .execute(),
  ]);
  return {
    members,
    member_count: Number(memberCount.count),
    permissions: permissions.map(entityRef),
    visibility: visibility.map(entityRef),
    data_fields: dataFields.map((f) => ({ id: f.id, name: f.name, def_dossier: entityRef(f) })),
    display_items: items.map((i) => ({ id: i.id, name: i.name, view: i.view, def_dossier: entityRef(i) })),
    list_options: options.map((o) => ({
      id: o.id,
      text: o.text,
      def_field: { id: o.def_field_id, name: o.def_field_name },
    })),
  };
}

const names = (list: string[]) => [...new Set(list)].join(', ');
const nameOf = (entity: EntityRef) => entityName({ id: entity.id, translations: entity.translations });

/** Where the role is used, as readable parts of the refusal's message; empty when nowhere. */
export function describeRoleUsage(usage: RoleUsage): string[] {
  const parts: string[] = [];
  if (usage.member_count) {
    const more = usage.member_count - usage.members.length;
    parts.push(
      `members ${names(usage.members.map((m) => m.username))}${more > 0 ? ` and ${more} more` : ''}`,
    );
  }
  if (usage.permissions.length) parts.push(`permissions on ${names(usage.permissions.map(nameOf))}`);
  if (usage.data_fields.length)
    parts.push(`data fields ${names(usage.data_fields.map((f) => `${f.name} of ${nameOf(f.def_dossier)}`))}`);
  if (usage.display_items.length)
    parts.push(`display items of ${names(usage.display_items.map((i) => nameOf(i.def_dossier)))}`);
  if (usage.visibility.length) parts.push(`visibility of ${names(usage.visibility.map(nameOf))}`);
  if (usage.list_options.length)
    parts.push(`list options of ${names(usage.list_options.map((o) => o.def_field.name))}`);
  return parts;
}

/**
 * Takes the role out of every place that names it (in the caller's transaction). Nobody holds it
 * afterwards, so every rule that names it admits and hides the same members as before. Answers the
 * entities whose summaries may read differently (their field or summary-item rules changed).
 */
export async function detachRole(trx: Kysely<Database>, row: RoleRow): Promise<number[]> {
  const environmentId = row.environment_id;
  const without = (column: string) => sql<number[]>`array_remove(${sql.ref(column)}, ${row.id})`;
  const naming = (column: string) => sql<boolean>`${sql.ref(column)} @> ${roleArray(row)}`;
  await trx
    .updateTable('environment_user')
    .set({ role_ids: without('role_ids') })
    .where('environment_id', '=', environmentId)
    .where(naming('role_ids'))
    .execute();
  await trx
    .deleteFrom('permission')
    .where('environment_id', '=', environmentId)
    .where('role_id', '=', row.id)
    .execute();
  await trx
    .updateTable('def_dossier')
    .set({ visibility_roles: without('visibility_roles') })
    .where('environment_id', '=', environmentId)
    .where(naming('visibility_roles'))
    .execute();
  await trx
    .updateTable('def_field_list')
    .set({
      settings: sql`jsonb_set(settings, '{roles}', (
        select coalesce(jsonb_agg(role order by n), '[]'::jsonb)
        from jsonb_array_elements(settings->'roles') with ordinality as e(role, n)
        where role <> to_jsonb(${row.id}::integer)))`,
    })
    .where('environment_id', '=', environmentId)
    .where(sql<boolean>`settings->'roles' @> ${roleJson(row)}`)
    .execute();
  const fields = await trx
    .updateTable('def_dossier_def_field')
    .set({ roles: without('roles') })
    .where('environment_id', '=', environmentId)
    .where(naming('roles'))
    .returning('def_dossier_id')
    .execute();
  const summaryItems = await trx
    .updateTable('display_item')
    .set({ roles: without('roles') })
    .where('environment_id', '=', environmentId)
    .where(naming('roles'))
    .returning(['def_dossier_id', 'view'])
    .execute();
  return [
    ...new Set([
      ...fields.map((f) => f.def_dossier_id),
      ...summaryItems.filter((i) => i.view === 'summary').map((i) => i.def_dossier_id),
    ]),
  ];
}
