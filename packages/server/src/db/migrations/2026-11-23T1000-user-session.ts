import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A sign-in opens a session; every access token names its session, and every call checks that the
// session is still open, so signing out (or a new password) ends the access tokens already handed
// out, not only the refresh token. Refresh tokens keep their session across rotation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_session')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    // When its newest refresh token expires; sessions past it are cleared at the user's next sign-in.
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('user_session_user').on('user_session').column('user_id').execute();
  await db.schema
    .alterTable('refresh_token')
    .addColumn('session_id', 'integer', (c) => c.references('user_session.id').onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_token').dropColumn('session_id').execute();
  await db.schema.dropTable('user_session').execute();
}
