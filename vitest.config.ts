import { defineConfig } from 'vitest/config';

// Projects: unit tests, the server's integration suite once per database, and Chromium end to end.
// scripts/test.mjs picks which run: the embedded PostgreSQL of npm start always, the shared PostgreSQL
// server when it is reachable or required. PGlite (kept for data directories of earlier versions) can
// be run on its own: npx vitest run --project server-pglite.
const globalSetups = {
  embedded: ['packages/server/test/embedded-postgres-cluster.ts'],
  postgres: [],
  pglite: ['packages/server/test/pglite-snapshot.ts'],
};
const serverSuite = (db: 'embedded' | 'postgres' | 'pglite') => ({
  test: {
    name: `server-${db}`,
    include: ['packages/server/**/*.test.ts'],
    env: { TEST_DB: db },
    globalSetup: globalSetups[db],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/core/**/*.test.ts', 'packages/web/src/**/*.test.{ts,tsx}'],
        },
      },
      serverSuite('embedded'),
      serverSuite('postgres'),
      serverSuite('pglite'),
      {
        test: {
          name: 'e2e',
          include: ['packages/web/e2e/**/*.e2e.ts'],
          // the stack's database: a schema on the run's embedded PostgreSQL, as the server suite
          globalSetup: globalSetups.embedded,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
