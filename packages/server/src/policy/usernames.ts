import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import { perDatabase } from '../db/per-database';

// A username never changes (migration 2026-11-29T1400 refuses it), so each node keeps the names it has
// read, per database: a list page names its dossiers' creators and last editors without joining
// app_user twice into its statement (0.15-0.2 ms of every list call), and reads only names it has not
// seen yet, in one statement.
const knownOf = perDatabase(() => new LRUCache<number, string>({ max: 100_000 }));

/** The usernames of `ids` (null ids and unknown users have none). */
export async function usernamesOf(
  db: Db,
  ids: Iterable<number | null>,
): Promise<(id: number | null) => string | null> {
  const names = knownOf(db);
  const found = new Map<number, string>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const name = names.get(id);
    if (name === undefined) missing.push(id);
    else found.set(id, name);
  }
  if (missing.length) {
    const rows = await db
      .selectFrom('app_user')
      .select(['id', 'username'])
      .where('id', 'in', missing)
      .execute();
    for (const row of rows) {
      names.set(row.id, row.username);
      found.set(row.id, row.username);
    }
  }
  return (id) => (id === null ? null : (found.get(id) ?? null));
}
