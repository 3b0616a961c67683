import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Uploaded files (field values of type file, signatures), stored in the database so that every app
// node sees them and a tenant's files go where its rows go.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index file_environment_idx on file (environment_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file').execute();
}
