import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('app_setting')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_user')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('locale', 'text')
    .addColumn('private_settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('otp_secret', 'text')
    .addColumn('force_password_update', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create unique index app_user_username_key on app_user (lower(username))`.execute(db);
  await sql`create index app_user_email_idx on app_user (lower(email))`.execute(db);

  await db.schema
    .createTable('locale')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('template')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('template', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('environment')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('logo', 'bytea')
    .addColumn('logo_mime', 'text')
    .addColumn('apply_template', 'integer', (c) => c.references('template.id').onDelete('set null'))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('env_modules', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('modified_by', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index environment_name_idx on environment (lower(name))`.execute(db);

  await db.schema
    .createTable('environment_locale')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('locale_id', 'integer', (c) => c.notNull().references('locale.id'))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('environment_locale_key', ['environment_id', 'locale_id'])
    .execute();

  await db.schema
    .createTable('role')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addUniqueConstraint('role_name_key', ['environment_id', 'name'])
    .execute();

  await db.schema
    .createTable('environment_user')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('credentials', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('role_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('environment_user_key', ['environment_id', 'user_id'])
    .execute();
  await sql`create index environment_user_user_idx on environment_user (user_id)`.execute(db);

  await db.schema
    .createTable('subscription')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('max_environments', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  for (const table of ['refresh_token', 'login_key', 'password_reset']) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
  }

  await db.schema
    .createTable('login_attempt')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('success', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create index login_attempt_username_idx on login_attempt (lower(username), created_at)`.execute(
    db,
  );
  await sql`create index login_attempt_address_idx on login_attempt (address, created_at)`.execute(db);

  await db.schema
    .createTable('def_dossier')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environment.id').onDelete('cascade'),
    )
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('main', 'hidden', 'other')`))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility_roles', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('translations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('modified_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('def_dossier_uuid_key', ['environment_id', 'uuid'])
    .execute();

  await sql`insert into locale (code, name) values
    ('nl_NL', 'Nederlands'), ('en_GB', 'English'), ('fr_FR', 'Français'), ('es_ES', 'Español'),
    ('es_CO', 'Español (Colombia)'), ('de_DE', 'Deutsch'), ('ru_RU', 'Русский')`.execute(db);
}
