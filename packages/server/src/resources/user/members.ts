import type { EnvironmentMember } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { EnvironmentAccess } from '../../policy/environment';
import { likeContains } from '../../query/list-query';

/** Members of the environment by name (username, first or last name), or by id. */
export async function listMembers(
  db: Db,
  access: EnvironmentAccess,
  query: { name?: string; active?: '0' | '1'; ids?: string; page: number; limit: number },
) {
  let filtered = db
    .selectFrom('environment_user as eu')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .where('eu.environment_id', '=', access.environment.id);
  if (query.name) {
    const pattern = likeContains(query.name);
    filtered = filtered.where((eb) =>
      eb.or([
        eb('u.username', 'ilike', pattern),
        eb('u.first_name', 'ilike', pattern),
        eb('u.last_name', 'ilike', pattern),
        eb(sql`concat_ws(' ', u.first_name, u.last_name)`, 'ilike', pattern),
      ]),
    );
  }
  if (query.active) filtered = filtered.where('u.active', '=', query.active === '1');
  if (query.ids) filtered = filtered.where('u.id', 'in', query.ids.split(',').map(Number));
  const { rows, pager } = await paginate(
    filtered,
    (q) =>
      q
        .select(['u.id', 'u.username', 'u.first_name', 'u.last_name', 'u.active'])
        .orderBy('u.last_name')
        .orderBy('u.first_name')
        .orderBy('u.username'),
    query,
  );
  const results: EnvironmentMember[] = rows.map((row) => ({
    id: row.id,
    username: row.username,
    profile: { first_name: row.first_name, last_name: row.last_name, preposition: null },
    environment_user_active: row.active,
  }));
  return { results, pager };
}
