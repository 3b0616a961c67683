// The migrated template of a test run on a PostgreSQL server. Migrating a schema took 1.5-2.5 s of
// every test file's time, about half the server suites' time; cloning a migrated database
// (CREATE DATABASE ... TEMPLATE, a copy of its files) takes about 0.2 s. Each vitest project on a
// PostgreSQL server makes one template in its global set-up; test/test-app.ts clones it per file.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { migrate, openDatabase } from '../src/db/database';

// What the projects' global set-ups hand to their test files (vitest's inject).
declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite data directory of this run, from test/pglite-snapshot.ts (server-pglite only). */
    pgliteSnapshot: string | undefined;
    /** The run's embedded PostgreSQL, from test/embedded-postgres-cluster.ts (server-embedded only). */
    embeddedPostgresUrl: string | undefined;
    /** The migrated database each file clones, on the run's PostgreSQL server (test/template-database.ts). */
    templateDatabase: string | undefined;
  }
}

/** The schema the template is migrated into; a clone renames it to a name of its own. */
export const TEMPLATE_SCHEMA = 'test_template';

/** A connection string to another database of the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}

/** Works on one connection of its own (CREATE and DROP DATABASE refuse transactions). */
async function withConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs statements on one connection of its own. */
export function onServer(url: string, ...statements: string[]): Promise<void> {
  return withConnection(url, async (client) => {
    for (const statement of statements) await client.query(statement);
  });
}

const TEMPLATE_PREFIX = 'dossierbase_template_';

/** How the names of `template`'s clones begin: test_<the template's own random part>_. */
const clonePrefix = (template: string) => `test_${template.slice(TEMPLATE_PREFIX.length)}_`;

/** A new name for a clone of `template`. */
export const cloneName = (template: string) => `${clonePrefix(template)}${randomBytes(5).toString('hex')}`;

/**
 * Makes a migrated template database on the server; returns its name and how to drop it with every
 * clone of it that is left (a file's clone is dropped in the background, a worker's last prefetched
 * clone never).
 */
export async function makeTemplateDatabase(serverUrl: string) {
  const name = `${TEMPLATE_PREFIX}${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const db = await openDatabase({
    databaseUrl: databaseUrl(serverUrl, name),
    databaseSchema: TEMPLATE_SCHEMA,
    dataDir: '',
  });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  const drop = () =>
    withConnection(serverUrl, async (client) => {
      const clones = await client.query<{ datname: string }>(
        'select datname from pg_database where starts_with(datname, $1)',
        [clonePrefix(name)],
      );
      for (const { datname } of clones.rows)
        await client.query(`drop database if exists ${datname} with (force)`);
      await client.query(`drop database if exists ${name} with (force)`);
    });
  return { name, drop };
}

/** Vitest global set-up of the server-postgres project: one template on the shared server. */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
  const template = await makeTemplateDatabase(serverUrl);
  project.provide('templateDatabase', template.name);
  return template.drop;
}
