import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A member can be deactivated in one environment without losing the account or their other
// environments: a deactivated member keeps their roles and credentials but cannot open the environment.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('environment_user')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('environment_user').dropColumn('active').execute();
}
