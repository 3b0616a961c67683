import { sql } from 'kysely';
import { type Db, isPglite } from '../db/database';
import { perDatabase } from '../db/per-database';

// What the field indexes and the sort indexes share: their background jobs, the CONCURRENTLY choice
// and the read of existing indexes. Index work runs in the background, one job at a time per entity
// (a build never races the sync that might drop its fields), and never blocks or fails the caller:
// failures are logged.
const chainsOf = perDatabase(() => new Map<number, Promise<void>>());

export function runEntityIndexJob(
  db: Db,
  defDossierId: number,
  job: () => Promise<unknown>,
  log: (message: string, error?: unknown) => void = (message, error) => console.error(message, error),
): void {
  const jobs = chainsOf(db);
  const next = (jobs.get(defDossierId) ?? Promise.resolve()).then(async () => {
    try {
      await job();
    } catch (error) {
      log(`index job of entity ${defDossierId} failed`, error);
    }
  });
  jobs.set(defDossierId, next);
  void next.finally(() => {
    if (jobs.get(defDossierId) === next) jobs.delete(defDossierId);
  });
}

/** Resolves when no background index job runs on this database (tests, shutdown). */
export async function indexJobsIdle(db: Db): Promise<void> {
  const jobs = chainsOf(db);
  while (jobs.size > 0) await Promise.all([...jobs.values()]);
}

/** 'concurrently ' for index DDL on PostgreSQL (never blocks writers), '' on PGlite, unless told. */
export async function concurrentlyKeyword(db: Db, concurrently?: boolean): Promise<string> {
  return (concurrently ?? !(await isPglite(db))) ? 'concurrently ' : '';
}

/** The indexes on a content_dossier partition whose names start with `prefix`, with validity. */
export async function dossierIndexesNamed(db: Db, partition: string, prefix: string) {
  const { rows } = await sql<{ name: string; valid: boolean }>`
    select c.relname as name, x.indisvalid as valid
    from pg_class c
    join pg_index x on x.indexrelid = c.oid
    join pg_class t on t.oid = x.indrelid
    where t.relname = ${partition} and c.relnamespace = current_schema()::regnamespace
      and left(c.relname, ${prefix.length}) = ${prefix}`.execute(db);
  return rows;
}
