import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Every signed-in call starts by reading the user (active, the session of its token still open), the
// environment it names (without the logo's bytes) and the user's membership of it. Sessions plan
// every statement anew (plan_cache_mode = force_custom_plan, for the list filters), which made this
// fixed-shape read cost 0.4-0.6 ms a call, more than half of it planning. Inside this function it
// runs with its plan cached after a few calls (plan_cache_mode = auto): 0.17-0.18 ms.
// The rows come back whole (to_jsonb), so columns added later arrive without a new function.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function signed_in_read(p_environment_id int, p_user_id int, p_session_id int) returns jsonb
    language plpgsql stable set plan_cache_mode = auto as $$
    begin
      return jsonb_build_object(
        'user', (select to_jsonb(u) from app_user u
          where u.id = p_user_id and u.active
            and exists (select 1 from user_session s where s.id = p_session_id and s.user_id = u.id
              and (s.ends_at is null or s.ends_at > now()))),
        'environment', (select to_jsonb(e) - 'logo' from environment e where e.id = p_environment_id),
        'membership', (select to_jsonb(eu) from environment_user eu
          where eu.environment_id = p_environment_id and eu.user_id = p_user_id));
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function signed_in_read(int, int, int)`.execute(db);
}
