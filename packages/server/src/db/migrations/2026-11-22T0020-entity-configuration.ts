import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The configurable data model of an environment: base fields, list options, data fields, links,
// display positions and items, custom views and per-role permissions on entities.
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  const environmentRef = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('environment.id').onDelete('cascade');
  const defDossierRef = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('def_dossier.id').onDelete('cascade');

  await db.schema
    .alterTable('def_dossier')
    .addColumn('archivable', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('def_field')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('def_field_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await sql`create index def_field_environment_idx on def_field (environment_id, lower(name))`.execute(db);

  await db.schema
    .createTable('def_field_list')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_field_id', 'integer', (c) => c.notNull().references('def_field.id').onDelete('cascade'))
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('color', 'text')
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('def_field_list_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await sql`create index def_field_list_field_idx on def_field_list (def_field_id, rank)`.execute(db);

  await db.schema
    .createTable('def_dossier_def_field')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('def_field_id', 'integer', (c) => c.notNull().references('def_field.id'))
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('obligatory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('def_dossier_def_field_uuid_key', ['environment_id', 'uuid'])
    .addUniqueConstraint('def_dossier_def_field_name_key', ['def_dossier_id', 'name'])
    .execute();
  await sql`create index def_dossier_def_field_field_idx on def_dossier_def_field (def_field_id)`.execute(db);

  await db.schema
    .createTable('def_dossier_link')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('child_def_dossier_id', 'integer', defDossierRef)
    .addColumn('back_link_id', 'integer', (c) => c.references('def_dossier_link.id').onDelete('set null'))
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type_of_link', 'text', (c) =>
      c.notNull().check(sql`type_of_link in ('select', 'embeddedList')`),
    )
    .addColumn('cascade_rule', 'text', (c) =>
      c.notNull().defaultTo('maintain').check(sql`cascade_rule in ('maintain', 'delete', 'constraint')`),
    )
    .addColumn('archive_cascade_rule', 'text', (c) =>
      c.notNull().defaultTo('').check(sql`archive_cascade_rule in ('', 'archive')`),
    )
    .addColumn('obligatory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('disable_backlink', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('def_dossier_link_uuid_key', ['environment_id', 'uuid'])
    .addUniqueConstraint('def_dossier_link_name_key', ['def_dossier_id', 'name'])
    .execute();
  await sql`create index def_dossier_link_child_idx on def_dossier_link (child_def_dossier_id)`.execute(db);

  await db.schema
    .createTable('display_position')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('main_content', 'tab', 'meta', 'footer', 'hide')`),
    )
    .addColumn('hide', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_name', 'text')
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addUniqueConstraint('display_position_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await sql`create index display_position_def_dossier_idx on display_position (def_dossier_id, rank)`.execute(
    db,
  );

  await db.schema
    .createTable('display_custom_view')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('view_name', 'text', (c) => c.notNull())
    .addUniqueConstraint('display_custom_view_name_key', ['def_dossier_id', 'view_name'])
    .execute();

  await db.schema
    .createTable('display_item')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('display_position_id', 'integer', (c) =>
      c.references('display_position.id').onDelete('cascade'),
    )
    .addColumn('def_dossier_def_field_id', 'integer', (c) =>
      c.references('def_dossier_def_field.id').onDelete('cascade'),
    )
    .addColumn('def_dossier_link_id', 'integer', (c) =>
      c.references('def_dossier_link.id').onDelete('cascade'),
    )
    .addColumn('view', 'text', (c) => c.notNull())
    .addColumn('col', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('colspan', 'integer', (c) => c.notNull().defaultTo(12))
    .addColumn('rowspan', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('roles', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('permissions_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('EXCLUDE_SELECTED_ROLES')
        .check(sql`permissions_type in ('EXCLUDE_SELECTED_ROLES', 'INCLUDE_SELECTED_ROLES')`),
    )
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('display_item_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await sql`create index display_item_def_dossier_idx on display_item (def_dossier_id, view, rank)`.execute(
    db,
  );
  await sql`create index display_item_field_idx on display_item (def_dossier_def_field_id)`.execute(db);
  await sql`create index display_item_link_idx on display_item (def_dossier_link_id)`.execute(db);

  await db.schema
    .createTable('permission')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', defDossierRef)
    .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addColumn('actions', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addUniqueConstraint('permission_role_key', ['def_dossier_id', 'role_id'])
    .execute();
}
