import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Dashboard blocks (spec document 1 section 3 "Dashboard block", "Block layout position"): a block of
// an environment, optionally over an entity and a saved query, inside a container block or not; and
// the grid positions of the blocks, per user (their own view) and the environment's default view.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mypage_block')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('def_dossier_id', 'integer', (c) => c.references('def_dossier.id').onDelete('cascade'))
    .addColumn('dossier_query_id', 'integer', (c) => c.references('dossier_query.id').onDelete('set null'))
    .addColumn('parent_id', 'integer', (c) => c.references('mypage_block.id').onDelete('cascade'))
    .addColumn('col', 'integer', (c) => c.notNull().defaultTo(12).check(sql`col between 1 and 12`))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dashboard', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('roles', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('mypage_block_environment_id_key', ['environment_id', 'id'])
    .addUniqueConstraint('mypage_block_uuid_key', ['environment_id', 'uuid'])
    .execute();
  await db.schema
    .createIndex('mypage_block_environment_idx')
    .on('mypage_block')
    .columns(['environment_id', 'rank', 'id'])
    .execute();

  // One row per environment and view: user_id null is the default view.
  await db.schema
    .createTable('mypage_position')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id').onDelete('cascade'))
    .addColumn('positions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index mypage_position_view_key on mypage_position (environment_id, coalesce(user_id, 0))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mypage_position').execute();
  await db.schema.dropTable('mypage_block').execute();
}
