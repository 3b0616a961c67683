// Vitest global set-up of the server-pglite project: migrates one in-memory PGlite and dumps its
// data directory once, so that each test file starts from the dump instead of migrating again.
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/db/database';
import { JsonColumnsPlugin } from '../src/db/json-columns';
import type { Database } from '../src/db/schema';

// (ProvidedContext's pgliteSnapshot is declared in test-app.ts, which every program with tests includes)
export default async function setup(project: TestProject) {
  const pg = await PGlite.create({ extensions: { pg_trgm } });
  const db = new Kysely<Database>({
    dialect: new KyselyPGlite(pg).dialect,
    plugins: [new JsonColumnsPlugin()],
  });
  await migrate(db);
  const dump = await pg.dumpDataDir('none');
  await db.destroy();
  const file = path.join(os.tmpdir(), `dossierbase-pglite-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rm(file, { force: true });
}
