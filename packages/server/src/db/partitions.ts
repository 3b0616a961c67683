import { sql } from 'kysely';
import { checkedId } from '../query/field-expression';
import type { Db } from './database';

// content_dossier, content_link and dossier_log are partitioned by environment, one partition each
// per environment (made by a trigger on environment, migration 2026-11-25T1500). Entity-specific
// indexes and statistics go on the environment's partition, so no other tenant's planning sees them.

/** The partition of content_dossier that holds the environment's dossiers. */
export const dossierPartition = (environmentId: number) => `content_dossier_e${checkedId(environmentId)}`;

// An entity never moves to another environment: its partition is looked up once per database.
const partitionOfEntity = new WeakMap<Db, Map<number, string>>();

/** The content_dossier partition of the entity's environment; throws for an unknown entity. */
export async function entityDossierPartition(db: Db, defDossierId: number): Promise<string> {
  const known = partitionOfEntity.get(db) ?? new Map<number, string>();
  partitionOfEntity.set(db, known);
  const cached = known.get(defDossierId);
  if (cached) return cached;
  const entity = await db
    .selectFrom('def_dossier')
    .select('environment_id')
    .where('id', '=', defDossierId)
    .executeTakeFirstOrThrow(() => new Error(`Unknown entity ${defDossierId}`));
  const partition = dossierPartition(entity.environment_id);
  known.set(defDossierId, partition);
  return partition;
}

/** ANALYZE of one environment's dossiers (the parent's ANALYZE would read every tenant's). */
export async function analyzeDossierPartition(db: Db, partition: string): Promise<void> {
  await sql`analyze ${sql.id(partition)}`.execute(db);
}
