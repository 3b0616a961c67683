import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import { paginate } from '../../db/paginate';
import type { AppUserTable, Database, EnvironmentUserTable } from '../../db/schema';
import type { EnvironmentAccess } from '../../policy/environment';
import { likeContains } from '../../query/list-query';
import { presentMember } from './present';

type MemberTables = Database & { eu: EnvironmentUserTable; u: AppUserTable };

/** The memberships of an environment (`eu`) joined with their accounts (`u`). */
export const membersOf = (db: Db, environmentId: number) =>
  db
    .selectFrom('environment_user as eu')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .where('eu.environment_id', '=', environmentId);

/** What colleagues see of a user (`u`): names, chosen presence and avatar. */
export const COLLEAGUE_COLUMNS = [
  'u.id',
  'u.username',
  'u.first_name',
  'u.preposition',
  'u.last_name',
  'u.private_settings',
  'u.avatar_at',
] as const;

/** The user (`u`) has an open session somewhere: a session lasts until its refresh token expires. */
export const signedInSomewhere = sql<boolean>`exists (
  select 1 from user_session s where s.user_id = u.id and s.expires_at > now())`;

/** Username, first or last name or the full name contains the text; admins also find e-mail addresses. */
export const memberMatches =
  (text: string, { email = false } = {}) =>
  (eb: ExpressionBuilder<MemberTables, 'eu' | 'u'>) => {
    const pattern = likeContains(text);
    return eb.or([
      eb('u.username', 'ilike', pattern),
      eb('u.first_name', 'ilike', pattern),
      eb('u.last_name', 'ilike', pattern),
      eb(sql`concat_ws(' ', u.first_name, u.preposition, u.last_name)`, 'ilike', pattern),
      ...(email ? [eb('u.email', 'ilike', pattern)] : []),
    ]);
  };

/** Active in the environment, with an account that may sign in. */
export const memberIsActive = (eb: ExpressionBuilder<MemberTables, 'eu' | 'u'>) =>
  eb.and([eb('eu.active', '=', true), eb('u.active', '=', true)]);

/** Members of the environment by name (username, first or last name), or by id. */
export async function listMembers(
  db: Db,
  access: EnvironmentAccess,
  query: { name?: string; active?: '0' | '1'; ids?: string; page: number; limit: number },
) {
  let filtered = membersOf(db, access.environment.id);
  if (query.name) filtered = filtered.where(memberMatches(query.name));
  if (query.active) {
    filtered = filtered.where((eb) =>
      query.active === '1' ? memberIsActive(eb) : eb.not(memberIsActive(eb)),
    );
  }
  if (query.ids) filtered = filtered.where('u.id', 'in', query.ids.split(',').map(Number));
  const { rows, pager } = await paginate(
    filtered,
    (q) =>
      q
        .select([...COLLEAGUE_COLUMNS, signedInSomewhere.as('signed_in')])
        .select((eb) => memberIsActive(eb).as('active'))
        .orderBy('u.last_name')
        .orderBy('u.first_name')
        .orderBy('u.username'),
    query,
  );
  return { results: rows.map((row) => presentMember({ ...row, active: row.active === true })), pager };
}
