import { defineConfig } from 'vitest/config';

// Projects: unit tests, the server's integration suite once per database, and Chromium end to end.
// scripts/test.mjs picks which run (PostgreSQL only when it is reachable or required).
const serverSuite = (db: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${db}`,
    include: ['packages/server/**/*.test.ts'],
    env: { TEST_DB: db },
    globalSetup: db === 'pglite' ? ['packages/server/test/pglite-snapshot.ts'] : [],
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
      serverSuite('pglite'),
      serverSuite('postgres'),
      {
        test: {
          name: 'e2e',
          include: ['packages/web/e2e/**/*.e2e.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
