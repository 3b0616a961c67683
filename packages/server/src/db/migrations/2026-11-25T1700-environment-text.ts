import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// An environment's own wording of interface texts: for a key of the web client's catalogues, in a
// language (en, nl ...) or one of the environment's locales (nl_NL ...), the text its members see
// instead of the catalogue's. Keyed by the environment first, as every tenant table is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('environment_text')
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('modified_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('environment_text_pkey', ['environment_id', 'locale', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('environment_text').execute();
}
