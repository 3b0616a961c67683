import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import { perDatabase } from '../db/per-database';

// An entity never moves to another environment (migration 2026-11-29T1500 refuses it), so each node
// keeps, per database, the environment of every entity it has looked up: a call that names only an
// entity (a create) reads the user's standing in its environment without a round trip before it, and
// the index builds find the entity's partition (db/partitions.ts).
// Only entities found are kept: an id unknown now may be an entity's tomorrow.
const knownOf = perDatabase(() => new LRUCache<number, number>({ max: 100_000 }));

/** The environment of entity `defDossierId`, or null when there is no such entity. */
export async function environmentOfEntity(db: Db, defDossierId: number): Promise<number | null> {
  const environments = knownOf(db);
  const cached = environments.get(defDossierId);
  if (cached !== undefined) return cached;
  const entity = await db
    .selectFrom('def_dossier')
    .select('environment_id')
    .where('id', '=', defDossierId)
    .executeTakeFirst();
  if (!entity) return null;
  environments.set(defDossierId, entity.environment_id);
  return entity.environment_id;
}
