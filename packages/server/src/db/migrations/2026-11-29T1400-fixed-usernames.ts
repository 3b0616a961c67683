import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A username never changes (the spec has no call that renames a user, and the dossier log keeps the
// name as it was): each node keeps the names it has read (policy/usernames.ts) instead of joining
// app_user into every list page. This trigger holds that promise for any writer, not only ours.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function refuse_username_change() returns trigger language plpgsql as $$
    begin
      raise exception 'a username never changes' using errcode = 'check_violation';
    end $$`.execute(db);
  await sql`
    create trigger app_user_username_fixed before update of username on app_user
    for each row when (old.username is distinct from new.username)
    execute function refuse_username_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger app_user_username_fixed on app_user`.execute(db);
  await sql`drop function refuse_username_change()`.execute(db);
}
