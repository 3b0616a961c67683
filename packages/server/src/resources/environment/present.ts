import type { DefDossierSummary, Environment, Locale, Role } from '@dossierbase/core';
import type { Db } from '../../db/database';
import type { EnvironmentRow, UserRow } from '../../db/schema';
import { environmentAbilities } from '../../policy/abilities';
import { entitiesShownToRoles, entityInMenus } from '../../policy/entity';

/** Turns environment rows into the wire shape, loading their parts in one query each. */
export async function presentEnvironments(
  db: Db,
  user: UserRow,
  rows: EnvironmentRow[],
): Promise<Environment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const userIds = [
    ...new Set(rows.flatMap((row) => [row.created_by, row.modified_by]).filter((id) => id !== null)),
  ];
  const [locales, roles, defDossiers, memberships, users, queries] = await Promise.all([
    db
      .selectFrom('environment_locale')
      .innerJoin('locale', 'locale.id', 'environment_locale.locale_id')
      .select(['environment_locale.environment_id', 'locale.id', 'locale.code', 'locale.name'])
      .where('environment_locale.environment_id', 'in', ids)
      .orderBy('environment_locale.rank')
      .orderBy('environment_locale.id')
      .execute(),
    db
      .selectFrom('role')
      .select(['environment_id', 'id', 'name'])
      .where('environment_id', 'in', ids)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('def_dossier')
      .selectAll()
      .where('environment_id', 'in', ids)
      .orderBy('rank')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('environment_user')
      .selectAll()
      .where('environment_id', 'in', ids)
      .where('user_id', '=', user.id)
      .execute(),
    userIds.length
      ? db.selectFrom('app_user').select(['id', 'username']).where('id', 'in', userIds).execute()
      : Promise.resolve([]),
    db
      .selectFrom('dossier_query')
      .select(['def_dossier_id', 'id', 'uuid'])
      .where('environment_id', 'in', ids)
      .orderBy('id')
      .execute(),
  ]);
  const usersById = new Map(users.map((u) => [u.id, u]));
  const shown = await entitiesShownToRoles(
    db,
    ids,
    memberships.flatMap((m) => m.role_ids),
  );
  return rows.map((row) => {
    const access = {
      environment: row,
      membership: memberships.find((m) => m.environment_id === row.id) ?? null,
      user,
    };
    const visible = defDossiers.filter(
      (dd) => dd.environment_id === row.id && entityInMenus(access, dd, shown),
    );
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      active: row.active,
      logo: row.logo_mime ? `/api/environment/${row.id}/logo?v=${row.modified_at.getTime()}` : null,
      apply_template: row.apply_template,
      locales: locales
        .filter((l) => l.environment_id === row.id)
        .map(({ id, code, name }): Locale => ({ id, code, name })),
      roles: roles.filter((r) => r.environment_id === row.id).map(({ id, name }): Role => ({ id, name })),
      env_modules: row.env_modules,
      defdossiers: visible.map(
        (dd): DefDossierSummary => ({
          id: dd.id,
          uuid: dd.uuid,
          type: dd.type,
          rank: dd.rank,
          visibility_roles: dd.visibility_roles,
          query_settings: (dd.settings.query_settings as DefDossierSummary['query_settings']) ?? {},
          dossierqueries: queries
            .filter((q) => q.def_dossier_id === dd.id)
            .map(({ id, uuid }) => ({ id, uuid })),
          translations: dd.translations,
        }),
      ),
      credentials: access.membership?.credentials ?? [],
      abilities: environmentAbilities(access),
      settings: row.settings,
      created_by: row.created_by === null ? null : (usersById.get(row.created_by) ?? null),
      created_at: row.created_at.toISOString(),
      modified_at: row.modified_at.toISOString(),
      modified_by: row.modified_by === null ? null : (usersById.get(row.modified_by) ?? null),
    };
  });
}

export async function presentEnvironment(db: Db, user: UserRow, row: EnvironmentRow): Promise<Environment> {
  const [environment] = await presentEnvironments(db, user, [row]);
  return environment;
}
