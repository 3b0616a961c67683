import { availableParallelism } from 'node:os';
import { parse } from 'pg-connection-string';

// PostgreSQL's default of two parallel workers per query assumes a core for each of them beside the
// backend that leads them. When the database shares this machine's cores, a worker without a core of
// its own only adds its start and the switching between processes: a count with two
// aggregations over a projection of 1,000,000 dossiers took 141-151 ms with two workers, 115-122 ms
// with one and 166-171 ms with none, on a 2-core machine (psql, explain analyze, 5 runs each). So when
// the database runs on this machine, a query gets at most one worker fewer than there are cores. A
// database elsewhere keeps its own setting, and PGOPTIONS (appended after) overrides this one.

const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '::1']);

/** Whether a connection string names a database on this machine (loopback or a Unix socket). */
export function isLocalDatabase(databaseUrl: string): boolean {
  const host = parse(databaseUrl).host ?? '';
  return LOCAL_HOSTS.has(host) || host.startsWith('/');
}

/** The connection option that limits parallel workers per query on a local database, or null. */
export function parallelWorkersOption(databaseUrl: string, cores = availableParallelism()): string | null {
  if (!isLocalDatabase(databaseUrl)) return null;
  const workers = Math.min(2, Math.max(0, cores - 1));
  return workers < 2 ? `-c max_parallel_workers_per_gather=${workers}` : null;
}
