import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Deleting an entity with dossiers failed: the cascade deletes its dossiers, and the data-version
// trigger then inserted a version row for the entity that was just deleted (a foreign-key violation,
// answered 500). The triggers now bump only entities that still exist.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function bump_entity_data_version_of_dossiers() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct c.def_dossier_id, 1 from changed_rows c
      where exists (select 1 from def_dossier e where e.id = c.def_dossier_id)
      order by c.def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function bump_entity_data_version_of_links() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct d.def_dossier_id, 1
      from changed_rows l
      join content_dossier d on d.id in (l.parent_id, l.child_id)
      where exists (select 1 from def_dossier e where e.id = d.def_dossier_id)
      order by d.def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function bump_entity_data_version_of_dossiers() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct def_dossier_id, 1 from changed_rows
      order by def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function bump_entity_data_version_of_links() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct d.def_dossier_id, 1
      from changed_rows l
      join content_dossier d on d.id in (l.parent_id, l.child_id)
      order by d.def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
}
