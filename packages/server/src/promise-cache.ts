import { LRUCache } from 'lru-cache';

const everyCache = new Set<LRUCache<string, Promise<unknown>>>();

/**
 * Empties every promise cache of this process. The caches' keys hold ids, which are unique within
 * one database; the test suites share one process between test files that each have a database of
 * their own (test/fresh-caches.ts).
 */
export function clearPromiseCaches() {
  for (const cache of everyCache) cache.clear();
}

/**
 * A per-node LRU of promises: a key is computed once even when requests ask for it together, and a
 * failure is not kept. Keys must name everything the value depends on, versions included.
 */
export function createPromiseCache(options: { max: number; ttlMs: number }) {
  const cache = new LRUCache<string, Promise<unknown>>({ max: options.max, ttl: options.ttlMs });
  everyCache.add(cache);
  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const hit = cache.get(key) as Promise<T> | undefined;
      if (hit) return hit;
      const pending = compute();
      cache.set(key, pending);
      pending.catch(() => cache.delete(key));
      return pending;
    },
    peek: (key: string) => cache.get(key),
    clear: () => cache.clear(),
  };
}
