import type { Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The profile's preposition (van, de, von ...) and mobile number, and the avatar: its two WebP
// sizes in a table of their own, so that reading a user (every request does) never reads pictures;
// app_user.avatar_at says whether there is one and versions its address.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('app_user')
    .addColumn('preposition', 'text')
    .addColumn('mobile', 'text')
    .addColumn('avatar_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('user_avatar')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('app_user.id').onDelete('cascade'))
    .addColumn('small', 'bytea', (c) => c.notNull())
    .addColumn('large', 'bytea', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_avatar').execute();
  await db.schema
    .alterTable('app_user')
    .dropColumn('preposition')
    .dropColumn('mobile')
    .dropColumn('avatar_at')
    .execute();
}
