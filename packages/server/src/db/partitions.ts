import { sql, type Transaction } from 'kysely';
import { environmentOfEntity } from '../policy/entity-environment';
import { checkedId } from '../query/field-expression';
import type { Db } from './database';
import type { Database } from './schema';

// content_dossier, content_link and dossier_log are partitioned by environment, one partition each
// per environment (made by a trigger on environment, migration 2026-11-25T1500). Entity-specific
// indexes and statistics go on the environment's partition, so no other tenant's planning sees them.

/** The advisory lock that lets one environment be created at a time (its partitions with it). */
const ENVIRONMENT_CREATION_LOCK = 16_004;

/**
 * Lets one environment be created at a time: taken in the creating transaction, before the insert.
 * The new row's trigger creates its partitions, which locks the partitioned tables and then the
 * environment table for their keys, while another creation holds that table since its insert and
 * waits for the partitioned tables (a deadlock: one of the two fails).
 */
export async function lockEnvironmentCreation(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ENVIRONMENT_CREATION_LOCK}, 0)`.execute(trx);
}

/** The tables partitioned by environment. */
export type PartitionedTable = 'content_dossier' | 'content_link' | 'dossier_log';

/** The name of the environment's partition of `table` (create_environment_partitions names them so). */
const partitionName = (table: PartitionedTable, environmentId: number) =>
  `${table}_e${checkedId(environmentId)}`;

/** The partition of content_dossier that holds the environment's dossiers. */
export const dossierPartition = (environmentId: number) => partitionName('content_dossier', environmentId);

/**
 * The environment's partition of `table`, for a statement to name instead of the parent. A statement
 * on the parent reads the parent's list of partitions (one per environment) the first time it runs on
 * a connection: beside 200 other environments, the list page's first statement on a new connection
 * took 23 ms where it took 16 ms alone (bench/tenants.ts (i)); named by its partition, as alone.
 */
export const partitionOf = (table: PartitionedTable, environmentId: number) =>
  sql.table(partitionName(table, environmentId));

/** The content_dossier partition of the entity's environment; throws for an unknown entity. */
export async function entityDossierPartition(db: Db, defDossierId: number): Promise<string> {
  const environmentId = await environmentOfEntity(db, defDossierId);
  if (environmentId === null) throw new Error(`Unknown entity ${defDossierId}`);
  return dossierPartition(environmentId);
}

/** ANALYZE of one environment's dossiers (the parent's ANALYZE would read every tenant's). */
export async function analyzeDossierPartition(db: Db, partition: string): Promise<void> {
  await sql`analyze ${sql.id(partition)}`.execute(db);
}
