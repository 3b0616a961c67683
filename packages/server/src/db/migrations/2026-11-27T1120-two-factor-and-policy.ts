import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Two-factor sign-in (/security): a secret waits in otp_pending_secret until the user confirms it
// with a first code, then becomes otp_secret; ten recovery codes, stored as SHA-256 hashes, each work
// once instead of a code. Each environment has a security policy that its admins set: two-factor
// sign-in required of its members, the passwords' minimum length and complexity, and how long a
// sign-in lasts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_user').addColumn('otp_pending_secret', 'text').execute();
  await db.schema
    .createTable('user_recovery_code')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('user_recovery_code_user')
    .on('user_recovery_code')
    .columns(['user_id', 'code_hash'])
    .execute();
  await db.schema
    .alterTable('environment')
    .addColumn('require_two_factor', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('password_min_length', 'integer', (c) => c.notNull().defaultTo(8))
    .addColumn('password_complexity', 'boolean', (c) => c.notNull().defaultTo(false))
    // null: the platform's own refresh lifetime
    .addColumn('session_hours', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('environment')
    .dropColumn('session_hours')
    .dropColumn('password_complexity')
    .dropColumn('password_min_length')
    .dropColumn('require_two_factor')
    .execute();
  await db.schema.dropTable('user_recovery_code').execute();
  await db.schema.alterTable('app_user').dropColumn('otp_pending_secret').execute();
}
