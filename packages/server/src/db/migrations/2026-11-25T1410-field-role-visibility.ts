import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Role visibility becomes a property of a data field (def_dossier_def_field.roles and
// permissions_type, with the display items' meaning), holding in every view; an item's own roles
// narrow it further. Until now only the items restricted roles: a field hidden from a role on the
// dossier page (its show/edit, edit and show items, the ones the field designer edits) still showed
// in that role's lists, searches and summaries.
//
// Each field gets the roles that see it in at least one of those items: nothing visible on a dossier
// page before is hidden there now, and every other view hides it from whoever saw it on no dossier
// page. Several items combine exactly when they include roles (the union) or one of them hides from
// nobody; items that all exclude roles combine to those excluded by every one of them (some readers
// the items hid keep the field in their lists, as before); items of both kinds leave the field
// unrestricted (their items still hide the dossier pages).

type PermissionsType = 'EXCLUDE_SELECTED_ROLES' | 'INCLUDE_SELECTED_ROLES';
interface Rule {
  roles: number[];
  permissions_type: PermissionsType;
}

/** One rule that admits whoever one of the rules admits (or null: every reader). */
function visibleToAny(rules: Rule[]): Rule | null {
  const include = rules.filter((rule) => rule.permissions_type === 'INCLUDE_SELECTED_ROLES');
  if (include.length === rules.length) {
    const roles = [...new Set(include.flatMap((rule) => rule.roles))].sort((a, b) => a - b);
    return { roles, permissions_type: 'INCLUDE_SELECTED_ROLES' };
  }
  if (include.length > 0) return null;
  const [first, ...rest] = rules;
  const roles = first.roles.filter((role) => rest.every((rule) => rule.roles.includes(role)));
  return roles.length
    ? { roles: [...new Set(roles)].sort((a, b) => a - b), permissions_type: 'EXCLUDE_SELECTED_ROLES' }
    : null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table def_dossier_def_field
    add column roles integer[] not null default '{}',
    add column permissions_type text not null default 'EXCLUDE_SELECTED_ROLES'
      check (permissions_type in ('EXCLUDE_SELECTED_ROLES', 'INCLUDE_SELECTED_ROLES'))`.execute(db);
  const { rows } = await sql<Rule & { field_id: number }>`
    select def_dossier_def_field_id as field_id, roles, permissions_type from display_item
    where def_dossier_def_field_id is not null and view in ('show/edit', 'edit', 'show')
    order by def_dossier_def_field_id, id`.execute(db);
  const byField = new Map<number, Rule[]>();
  for (const row of rows) byField.set(row.field_id, [...(byField.get(row.field_id) ?? []), row]);
  const restricted: number[] = [];
  for (const [fieldId, rules] of byField) {
    const rule = visibleToAny(rules);
    if (!rule) continue;
    await sql`update def_dossier_def_field
      set roles = cast(${rule.roles} as integer[]), permissions_type = ${rule.permissions_type}
      where id = ${fieldId}`.execute(db);
    restricted.push(fieldId);
  }
  if (restricted.length === 0) return;
  // The stored summaries of their entities are rewritten at the next start (summary_refresh). Until
  // then, summary items of these fields are restricted ones, whose variant keys changed: readers who
  // may not see them are shown the dossier's id. An entity without summary items is summarised by a
  // field every reader may see, which may be one of these: its summaries show the id meanwhile.
  const entities = sql`select distinct environment_id, def_dossier_id from def_dossier_def_field
    where id in (${sql.join(restricted)})`;
  await sql`insert into summary_refresh (environment_id, def_dossier_id)
    select environment_id, def_dossier_id from (${entities}) as e
    on conflict (environment_id, def_dossier_id) do nothing`.execute(db);
  await sql`update content_dossier c set summary = '#' || c.id, summaries = null
    from (${entities}) as e
    where c.environment_id = e.environment_id and c.def_dossier_id = e.def_dossier_id
      and not exists (select 1 from display_item i where i.def_dossier_id = e.def_dossier_id
        and i.view = 'summary' and i.def_dossier_def_field_id is not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table def_dossier_def_field drop column roles, drop column permissions_type`.execute(db);
}
