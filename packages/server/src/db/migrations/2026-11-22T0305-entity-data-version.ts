import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A version per entity that moves on every write to its dossiers or their links, kept by statement
// triggers so no write path can forget it. List counts and aggregations are cached per version.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entity_data_version')
    .addColumn('def_dossier_id', 'integer', (c) =>
      c.primaryKey().references('def_dossier.id').onDelete('cascade'),
    )
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await sql`
    create function bump_entity_data_version_of_dossiers() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct def_dossier_id, 1 from changed_rows
      order by def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create function bump_entity_data_version_of_links() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct d.def_dossier_id, 1
      from changed_rows l
      join content_dossier d on d.id in (l.parent_id, l.child_id)
      order by d.def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);

  for (const [table, fn] of [
    ['content_dossier', 'bump_entity_data_version_of_dossiers'],
    ['content_link', 'bump_entity_data_version_of_links'],
  ] as const) {
    for (const [event, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.id(`${table}_${event}_data_version`)}
        after ${sql.raw(event)} on ${sql.id(table)}
        referencing ${sql.raw(transition)} table as changed_rows
        for each statement execute function ${sql.id(fn)}()`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['content_dossier', 'content_link'])
    for (const event of ['insert', 'update', 'delete'])
      await sql`drop trigger ${sql.id(`${table}_${event}_data_version`)} on ${sql.id(table)}`.execute(db);
  await sql`drop function bump_entity_data_version_of_dossiers()`.execute(db);
  await sql`drop function bump_entity_data_version_of_links()`.execute(db);
  await db.schema.dropTable('entity_data_version').execute();
}
