import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Saved queries (spec document 1 section 3 "Dossier query"): a query document over one entity, with
// its names per language. Keys carry environment_id like every table of an environment's data.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dossier_query')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('def_dossier_id', 'integer', (c) =>
      c.notNull().references('def_dossier.id').onDelete('cascade'),
    )
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('modified_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('dossier_query_environment_id_key', ['environment_id', 'id'])
    .addUniqueConstraint('dossier_query_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await db.schema
    .createIndex('dossier_query_entity_idx')
    .on('dossier_query')
    .columns(['environment_id', 'def_dossier_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dossier_query').execute();
}
