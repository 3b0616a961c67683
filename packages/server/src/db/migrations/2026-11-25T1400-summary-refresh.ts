import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A rewrite of an entity's stored summaries that runs in the background (a large entity whose summary
// items changed) is noted here until done, so that a node that stops half-way leaves it for the next
// start. requested_at: dossiers modified since then are rewritten once more at the end.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('summary_refresh')
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('def_dossier_id', 'integer', (c) =>
      c.notNull().references('def_dossier.id').onDelete('cascade'),
    )
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('summary_refresh_pkey', ['environment_id', 'def_dossier_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('summary_refresh').execute();
}
