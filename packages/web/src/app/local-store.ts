import { useSyncExternalStore } from 'react';

export const STORAGE_KEYS = {
  token: 'token_data',
  environment: 'environment',
  locale: 'locale',
  referer: 'referer',
  menuOpen: 'menu_open',
} as const;

export interface LocalStore<T> {
  get: () => T | null;
  set: (value: T | null) => void;
  subscribe: (listener: () => void) => () => void;
}

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

// A JSON value in localStorage that React components can subscribe to; also follows other tabs.
export function createLocalStore<T>(key: string): LocalStore<T> {
  const listeners = new Set<() => void>();
  let cache: T | null = readJson<T>(key);
  let raw = localStorage.getItem(key);

  const refresh = () => {
    const next = localStorage.getItem(key);
    if (next === raw) return false;
    raw = next;
    cache = readJson<T>(key);
    return true;
  };

  window.addEventListener('storage', (event) => {
    if ((event.key === key || event.key === null) && refresh()) for (const l of listeners) l();
  });

  return {
    get: () => {
      // localStorage.clear() elsewhere must be noticed without an event.
      refresh();
      return cache;
    },
    set: (value) => {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
      refresh();
      for (const l of listeners) l();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useLocalStore<T>(store: LocalStore<T>): T | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
