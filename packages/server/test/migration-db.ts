import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, Migrator, type RawBuilder } from 'kysely';
import { type Db, dropSchema, openDatabase } from '../src/db/database';
import { migrations } from '../src/db/migrations/index';
import { onPostgresServer, testPostgresUrl } from './test-app';

export interface MigrationDb {
  db: Db;
  /** the migration before the one under test */
  previous: string;
  /** moves the database to after the named migration (up or down); throws on a failure */
  migrateTo(name: string): Promise<void>;
  /** the first row of a statement (an insert ... returning, most often) */
  one<T>(query: RawBuilder<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A fresh database (in-memory PGlite, or a schema of its own on PostgreSQL) migrated up to the
 * migration before `name`, for a test of that migration's up and down.
 */
export async function databaseBefore(name: string): Promise<MigrationDb> {
  const previous = Object.keys(migrations)
    .filter((other) => other < name)
    .sort()
    .at(-1) as string;
  const schema = onPostgresServer() ? `test_${randomBytes(6).toString('hex')}` : null;
  const db = schema
    ? await openDatabase({ databaseUrl: testPostgresUrl(), databaseSchema: schema, dataDir: '' })
    : await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: 'memory://' });
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
    migrationTableSchema: schema ?? 'public',
  });
  const migrateTo = async (target: string) => {
    const { error } = await migrator.migrateTo(target);
    if (error) throw error;
  };
  await migrateTo(previous);
  return {
    db,
    previous,
    migrateTo,
    one: async (query) => (await query.execute(db)).rows[0],
    async close() {
      if (schema) await dropSchema(db, schema);
      await db.destroy();
    },
  };
}
