import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildEnvironment } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-app';
import { dossierPartition } from './partitions';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

test('environments created at the same moment are all created, each with its partitions', async () => {
  // each creation takes the creation lock before its insert; without it two of them deadlock
  const environments = await Promise.all(
    Array.from({ length: 6 }, (_, n) => buildEnvironment(t.db, { name: `Parallel ${n}` })),
  );
  const ids = environments.map((e) => e.id);
  expect(new Set(ids).size).toBe(6);
  const partitions = await sql<{ relname: string }>`
    select c.relname from pg_class c where c.relname = any(${ids.flatMap((id) => [
      dossierPartition(id),
      `content_link_e${id}`,
      `dossier_log_e${id}`,
    ])}::text[])`.execute(t.db);
  expect(partitions.rows).toHaveLength(18);
});
