import { ACTIVITY_TOP_USERS, type ActivityAnswer, type activityQuerySchema } from '@dossierbase/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { requireEnvironmentAdmin } from '../../policy/environment';

// User activity of an environment (GET /api/environment/{id}/activity), for its admins: read from the
// sign-in record and the member-days (auth/activity-record.ts). Days are UTC days; sign-ins count for
// an environment when the one who signed in is a member of it now.

export async function readActivity(
  db: Db,
  user: UserRow,
  query: z.output<typeof activityQuerySchema>,
): Promise<ActivityAnswer> {
  const { environment } = await requireEnvironmentAdmin(db, user, query.environment);
  // UTC days, whatever the database session's time zone
  const today = sql`(now() at time zone 'UTC')::date`;
  const firstDay = sql`(${today} - ${query.days - 1}::int)`;
  const signInDay = sql`(s.signed_in_at at time zone 'UTC')::date`;
  const members = db
    .selectFrom('environment_user')
    .select('user_id')
    .where('environment_id', '=', environment.id);

  const [days, mostActive] = await Promise.all([
    sql<{ day: string; sign_ins: number; active_users: number }>`
      select to_char(d.day, 'YYYY-MM-DD') as day,
             (select count(*)::int from sign_in s
               where s.user_id in (${members})
                 and s.signed_in_at >= d.day::timestamp at time zone 'UTC'
                 and s.signed_in_at < (d.day + 1)::timestamp at time zone 'UTC') as sign_ins,
             (select count(*)::int from member_activity_day a
               where a.environment_id = ${environment.id} and a.day = d.day) as active_users
      from (select g::date as day
            from generate_series(${firstDay}::timestamp, ${today}::timestamp, interval '1 day') g) d
      order by d.day`.execute(db),
    db
      .selectFrom('environment_user as eu')
      .innerJoin('app_user as u', 'u.id', 'eu.user_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('member_activity_day as a')
            .select((e) => e.fn.countAll<number>().as('active_days'))
            .where('a.environment_id', '=', environment.id)
            .whereRef('a.user_id', '=', 'eu.user_id')
            .where(sql<boolean>`a.day >= ${firstDay}`)
            .as('a'),
        (join) => join.onTrue(),
      )
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('sign_in as s')
            .select((e) => [
              e.fn.countAll<number>().as('sign_ins'),
              e.fn.max('s.signed_in_at').as('last_sign_in'),
            ])
            .whereRef('s.user_id', '=', 'eu.user_id')
            .where(sql<boolean>`${signInDay} >= ${firstDay}`)
            .as('s'),
        (join) => join.onTrue(),
      )
      .select([
        'u.id',
        'u.username',
        'u.first_name',
        'u.last_name',
        sql<number>`a.active_days::int`.as('active_days'),
        sql<number>`s.sign_ins::int`.as('sign_ins'),
        's.last_sign_in',
      ])
      .where('eu.environment_id', '=', environment.id)
      .where((eb) => eb.or([eb('a.active_days', '>', 0), eb('s.sign_ins', '>', 0)]))
      .orderBy('active_days', 'desc')
      .orderBy('sign_ins', 'desc')
      .orderBy('u.id')
      .limit(ACTIVITY_TOP_USERS)
      .execute(),
  ]);
  return {
    days: days.rows,
    most_active: mostActive.map((row) => ({
      ...row,
      last_sign_in: row.last_sign_in ? new Date(row.last_sign_in).toISOString() : null,
    })),
  };
}
