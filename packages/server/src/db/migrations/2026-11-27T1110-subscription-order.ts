import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// A contract admin's order: a recorded request for a subscription with other limits (environments,
// users, months). There is no payment provider: a super admin fulfils an order outside the product
// by adding the subscription; the order keeps which one, once fulfilled.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscription_order')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('max_environments', 'integer', (c) => c.notNull().check(sql`max_environments > 0`))
    .addColumn('max_users', 'integer', (c) => c.check(sql`max_users is null or max_users > 0`))
    .addColumn('months', 'integer', (c) => c.notNull().check(sql`months > 0`))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('requested').check(sql`status in ('requested', 'cancelled', 'fulfilled')`),
    )
    .addColumn('subscription_id', 'integer', (c) => c.references('subscription.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('subscription_order_user_idx')
    .on('subscription_order')
    .columns(['user_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subscription_order').execute();
}
