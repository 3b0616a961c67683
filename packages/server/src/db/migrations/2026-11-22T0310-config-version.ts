import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// environment.config_version moves on every write to the environment's configuration (entities,
// fields, options, links, positions, items, views, roles, permissions), kept by statement triggers.
// Each node caches configuration reads under it; the environment row is read on every call anyway.
const CONFIG_TABLES = [
  'def_dossier',
  'def_field',
  'def_field_list',
  'def_dossier_def_field',
  'def_dossier_link',
  'display_position',
  'display_item',
  'display_custom_view',
  'role',
  'permission',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table environment add column config_version bigint not null default 0`.execute(db);
  await sql`
    create function bump_environment_config_version() returns trigger language plpgsql as $$
    begin
      update environment set config_version = config_version + 1
      where id in (select distinct environment_id from changed_rows);
      return null;
    end $$`.execute(db);
  for (const table of CONFIG_TABLES) {
    for (const [event, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.id(`${table}_${event}_config_version`)}
        after ${sql.raw(event)} on ${sql.id(table)}
        referencing ${sql.raw(transition)} table as changed_rows
        for each statement execute function bump_environment_config_version()`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of CONFIG_TABLES)
    for (const event of ['insert', 'update', 'delete'])
      await sql`drop trigger ${sql.id(`${table}_${event}_config_version`)} on ${sql.id(table)}`.execute(db);
  await sql`drop function bump_environment_config_version()`.execute(db);
  await sql`alter table environment drop column config_version`.execute(db);
}
