import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A subscription may limit how many people work in the environments of its holder (null: no limit),
// as max_environments limits how many environments they create.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscription').addColumn('max_users', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscription').dropColumn('max_users').execute();
}
