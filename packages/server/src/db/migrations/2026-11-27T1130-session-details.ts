import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A user lists their open sessions (/security): the browser (user agent) and address they were
// opened from and when they were last used. ends_at is the latest a session may last, from the
// security policy of the user's environments (null: until its refresh token expires unused).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_session')
    .addColumn('user_agent', 'text')
    .addColumn('address', 'text')
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ends_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_session')
    .dropColumn('ends_at')
    .dropColumn('last_used_at')
    .dropColumn('address')
    .dropColumn('user_agent')
    .execute();
}
