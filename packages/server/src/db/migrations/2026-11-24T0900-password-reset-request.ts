import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Every forgot_password request, by the address it came from, so that one address can ask for only
// so many reset links in a window, on every node. Rows older than the window are deleted as new ones
// come in (by created_at).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_reset_request')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('password_reset_request_address')
    .on('password_reset_request')
    .columns(['address', 'created_at'])
    .execute();
  await db.schema
    .createIndex('password_reset_request_created')
    .on('password_reset_request')
    .column('created_at')
    .execute();
  // The mails a user was sent in the window are counted from their reset links.
  await db.schema
    .createIndex('password_reset_user')
    .on('password_reset')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('password_reset_user').execute();
  await db.schema.dropTable('password_reset_request').execute();
}
