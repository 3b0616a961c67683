import type { QueryKey } from '@tanstack/react-query';

// Which cached reads an event makes stale (issue 19): the lists of the written dossiers' entities
// (list, embedded list and the views that read through the list API, all under 'dossier-list' and the
// entity id), and the open dossiers among the written ones. Each reads again through the API.

/** Keys under an entity's 'dossier-list' that are not dossiers (layout, permissions, option labels). */
const NOT_ROWS = new Set(['items', 'abilities', 'options', 'subscriptions']);

/** A read of the rows of one of these entities (a list, an embedded list, a board...). */
export function isRowsKeyOf(key: QueryKey, entities: ReadonlySet<number>): boolean {
  return (
    key[0] === 'dossier-list' &&
    typeof key[1] === 'number' &&
    entities.has(key[1]) &&
    !NOT_ROWS.has(String(key[2]))
  );
}

/** A list read inside a dossier (embedded=...): another side of a written link. */
export function isEmbeddedListKey(key: QueryKey): boolean {
  return key[0] === 'dossier-list' && typeof key[3] === 'string' && /(^|&)embedded=/.test(key[3]);
}

/** A read of one of these dossiers (the detail page, any of its positions), or the favourites panel. */
export function isDossierKeyOf(key: QueryKey, dossiers: ReadonlySet<number>): boolean {
  if (key[0] !== 'dossier') return false;
  if (key[1] === 'favourites') return true;
  return key[1] === 'detail' && typeof key[2] === 'number' && dossiers.has(key[2]);
}

/** What the events heard within one delay ask to read again. */
export interface RealtimeBatch {
  entities: Set<number>;
  dossiers: Set<number>;
  embedded: boolean;
  /** per entity, the dossiers other users created */
  createdByOthers: Map<number, number[]>;
}

export const emptyBatch = (): RealtimeBatch => ({
  entities: new Set(),
  dossiers: new Set(),
  embedded: false,
  createdByOthers: new Map(),
});

/** Whether a cached read is stale after the batch. */
export const staleAfter = (batch: RealtimeBatch) => (key: QueryKey) =>
  isRowsKeyOf(key, batch.entities) ||
  isDossierKeyOf(key, batch.dossiers) ||
  (batch.embedded && isEmbeddedListKey(key));
