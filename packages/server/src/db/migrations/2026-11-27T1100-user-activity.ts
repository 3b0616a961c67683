import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The record behind the User activity screen: every sign-in of a user (the session start, whichever
// way they signed in), and each day on which a member worked in an environment (one row per member
// per environment per day, written on the first call of that day). Both are kept for 90 days.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('signed_in_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sign_in_user_time')
    .on('sign_in')
    .columns(['user_id', 'signed_in_at'])
    .execute();
  await db.schema.createIndex('sign_in_time').on('sign_in').column('signed_in_at').execute();
  await db.schema
    .createTable('member_activity_day')
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('member_activity_day_pkey', ['environment_id', 'day', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('member_activity_day').execute();
  await db.schema.dropTable('sign_in').execute();
}
