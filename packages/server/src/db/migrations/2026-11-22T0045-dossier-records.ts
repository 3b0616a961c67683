import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Dossiers (records), the links between them, their change log, favourites, subscriptions and
// the counters behind autoIncrement fields.
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  const environmentRef = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('environment.id').onDelete('cascade');
  const dossierRef = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('content_dossier.id').onDelete('cascade');
  const userRef = (c: ColumnDefinitionBuilder) => c.references('app_user.id').onDelete('set null');

  // pg_trgm is database-wide: install it once, in public (serialised, as parallel deployments or test
  // schemas may migrate at the same moment), and name its operator class by the schema it lives in.
  await sql`select pg_advisory_xact_lock(hashtext('dossierbase:pg_trgm'))`.execute(db);
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  const trigramOps = sql`${sql.id(rows[0].schema)}.gin_trgm_ops`;

  await db.schema
    .createTable('content_dossier')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    .addColumn('def_dossier_id', 'integer', (c) =>
      c.notNull().references('def_dossier.id').onDelete('cascade'),
    )
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('archived', 'boolean', (c) => c.notNull().defaultTo(false))
    // Field values keyed by data-field id (def_dossier_def_field.id, as text).
    .addColumn('values', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_by', 'integer', userRef)
    .addColumn('modified_by', 'integer', userRef)
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index content_dossier_list_idx on content_dossier (environment_id, def_dossier_id, archived, id)`.execute(
    db,
  );
  await sql`create index content_dossier_values_idx on content_dossier using gin ("values" jsonb_path_ops)`.execute(
    db,
  );
  await sql`create index content_dossier_summary_trgm_idx on content_dossier using gin (summary ${trigramOps})`.execute(
    db,
  );

  await db.schema
    .createTable('content_link')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    // Always the forward link; the backlink reads the same row from the child's side.
    .addColumn('link_id', 'integer', (c) => c.notNull().references('def_dossier_link.id').onDelete('cascade'))
    .addColumn('parent_id', 'bigint', dossierRef)
    .addColumn('child_id', 'bigint', dossierRef)
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('content_link_key', ['link_id', 'parent_id', 'child_id'])
    .execute();
  await sql`create index content_link_child_idx on content_link (link_id, child_id)`.execute(db);

  await db.schema
    .createTable('dossier_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', environmentRef)
    // No foreign key: the log of a deleted dossier stays readable.
    .addColumn('content_dossier_id', 'bigint', (c) => c.notNull())
    .addColumn('def_dossier_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('create', 'shown', 'change', 'archive', 'delete', 'secureshare')`),
    )
    .addColumn('user_id', 'integer', userRef)
    .addColumn('username', 'text')
    .addColumn('changes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index dossier_log_dossier_idx on dossier_log (content_dossier_id, created_at desc)`.execute(
    db,
  );

  for (const table of ['favourite', 'dossier_subscription']) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('environment_id', 'integer', environmentRef)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('content_dossier_id', 'bigint', dossierRef)
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addUniqueConstraint(`${table}_key`, ['user_id', 'content_dossier_id'])
      .execute();
  }

  await db.schema
    .createTable('auto_increment_counter')
    .addColumn('def_dossier_def_field_id', 'integer', (c) =>
      c.primaryKey().references('def_dossier_def_field.id').onDelete('cascade'),
    )
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
