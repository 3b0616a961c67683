import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, onPostgresServer } from '../../test/test-app';
import { isLocalDatabase, parallelWorkersOption } from './parallel-workers';

describe('parallel workers of a local database', () => {
  it('knows a database on loopback or a Unix socket from one elsewhere', () => {
    expect(isLocalDatabase('postgres://127.0.0.1:5432/test')).toBe(true);
    expect(isLocalDatabase('postgres://user:secret@localhost/test')).toBe(true);
    expect(isLocalDatabase('postgres://[::1]:5432/test')).toBe(true);
    expect(isLocalDatabase('postgresql:///test?host=/var/run/postgresql')).toBe(true);
    expect(isLocalDatabase('postgres:///test')).toBe(true);
    expect(isLocalDatabase('postgres://db.example.com/test')).toBe(false);
    expect(isLocalDatabase('postgres://10.0.0.7:5432/test')).toBe(false);
  });

  it('leaves every query at most one worker fewer than the cores', () => {
    const local = 'postgres://127.0.0.1:5432/test';
    expect(parallelWorkersOption(local, 1)).toBe('-c max_parallel_workers_per_gather=0');
    expect(parallelWorkersOption(local, 2)).toBe('-c max_parallel_workers_per_gather=1');
    // from three cores on, PostgreSQL's own default (two) already leaves the leader a core
    expect(parallelWorkersOption(local, 3)).toBeNull();
    expect(parallelWorkersOption(local, 16)).toBeNull();
    expect(parallelWorkersOption('postgres://db.example.com/test', 2)).toBeNull();
  });

  it.runIf(onPostgresServer())("sets it on the server's connections to this machine's database", async () => {
    const { db, close } = await createTestDatabase();
    try {
      const { rows } = await sql<{
        workers: string;
      }>`select current_setting('max_parallel_workers_per_gather') as workers`.execute(db);
      expect(Number(rows[0].workers)).toBe(Math.min(2, availableParallelism() - 1));
    } finally {
      await close();
    }
  });
});
