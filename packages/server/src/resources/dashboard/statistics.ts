import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { entitiesShownToRoles } from '../../policy/entity';
import { type EnvironmentAccess, isEnvironmentAdmin } from '../../policy/environment';
import type { RealtimeRooms } from '../../realtime/rooms';

// The environment statistics (spec document 1 section 7, /environmentadmin/statistics/...) and the
// blocks that show them: new dossiers per weekday over three weeks, online and offline members, the
// most active members.

/**
 * New dossiers per weekday (ISO: 1 Monday .. 7 Sunday, Amsterdam time) in the last 7 days, the 7 days
 * before and the 7 before those, of the entities the user may show.
 */
export async function newDossierStatistics(db: Db, access: EnvironmentAccess) {
  const env = access.environment.id;
  let entities: number[] | null = null;
  if (!isEnvironmentAdmin(access))
    entities = [...(await entitiesShownToRoles(db, [env], access.membership?.role_ids ?? []))];
  const rows = await sql<{ weeks_ago: number; weekday: number; cd_count: string }>`
    select floor(extract(epoch from (now() - created_at)) / (7 * 86400))::int as weeks_ago,
           extract(isodow from created_at at time zone 'Europe/Amsterdam')::int as weekday,
           count(*) as cd_count
    from content_dossier
    where environment_id = ${env} and created_at > now() - interval '21 days'
      ${entities === null ? sql`` : entities.length ? sql`and def_dossier_id in (${sql.join(entities)})` : sql`and false`}
    group by 1, 2 order by 1, 2`.execute(db);
  const week = (ago: number) =>
    rows.rows
      .filter((r) => r.weeks_ago === ago)
      .map((r) => ({ created_at: r.weekday, cd_count: Number(r.cd_count) }));
  return { lastweek: week(0), twoweeks: week(1), threeweeks: week(2) };
}

/** Members with a socket open in the environment's room (online) and the other active members. */
export async function onlineUsers(db: Db, access: EnvironmentAccess, rooms: RealtimeRooms | undefined) {
  const members = await db
    .selectFrom('environment_user')
    .select('user_id')
    .where('environment_id', '=', access.environment.id)
    .where('active', '=', true)
    .execute();
  const online = rooms ? await rooms.usersIn(access.environment.id) : new Set<number>();
  const count = members.filter((m) => online.has(m.user_id)).length;
  return { online: count, offline: members.length - count };
}

/** The members who wrote most in the environment's dossiers in the last 30 days (at most 10). */
export async function activeUsers(db: Db, environmentId: number) {
  const rows = await db
    .selectFrom('dossier_log as l')
    .innerJoin('app_user as u', 'u.id', 'l.user_id')
    .innerJoin('environment_user as eu', (join) =>
      join.onRef('eu.user_id', '=', 'l.user_id').on('eu.environment_id', '=', environmentId),
    )
    .select(['u.id as user_id', 'u.username', sql<string>`count(*)`.as('total_count')])
    .where('l.environment_id', '=', environmentId)
    .where('l.type', 'in', ['create', 'change', 'archive', 'delete'])
    .where('l.created_at', '>', sql<Date>`now() - interval '30 days'`)
    .groupBy(['u.id', 'u.username'])
    .orderBy(sql`3`, 'desc')
    .orderBy('u.id')
    .limit(10)
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, username: r.username, total_count: Number(r.total_count) }));
}
