import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// An entity never moves to another environment (its dossiers live in its environment's partitions,
// keyed by environment): each node keeps the environment of the entities it has looked up
// (policy/entity-environment.ts), which saves every call about an entity (a create) a round trip.
// This trigger holds that promise for any writer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function refuse_entity_move() returns trigger language plpgsql as $$
    begin
      raise exception 'an entity never moves to another environment' using errcode = 'check_violation';
    end $$`.execute(db);
  await sql`
    create trigger def_dossier_environment_fixed before update of environment_id on def_dossier
    for each row when (old.environment_id is distinct from new.environment_id)
    execute function refuse_entity_move()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger def_dossier_environment_fixed on def_dossier`.execute(db);
  await sql`drop function refuse_entity_move()`.execute(db);
}
