import type { CompiledQuery } from 'kysely';
import { createPromiseCache } from '../promise-cache';

// Counts and aggregations of the list call depend only on the filters and on the data, not on the page
// or the sort, so paging and sorting a filtered list of a million dossiers should not count it again.
// They are cached per node under the data version of the entity and of the entities linked to it:
// the triggers of migration 2026-11-22T0305 move that version on every write, on every node, so a
// cached figure is never served for data that has changed since.

const cache = createPromiseCache({ max: 10_000, ttlMs: 15 * 60_000 });

export const queryKey = (query: CompiledQuery) => `${query.sql}\u0000${JSON.stringify(query.parameters)}`;

/** The cached result of `compute` under `key` (see createPromiseCache). */
export const cachedResult = <T>(key: string, compute: () => Promise<T>) => cache.get(key, compute);

/** The cached (or still running) result under `key`, without computing it. */
export const peekCachedResult = <T>(key: string) => cache.peek(key) as Promise<T> | undefined;
