import { useSyncExternalStore } from 'react';

// Dossiers another user created while this one looked (issue 19): their rows are highlighted for 30
// seconds (spec doc 2 section 9), in every list and embedded list that shows them.

export const HIGHLIGHT_MS = 30_000;

let recent: ReadonlySet<number> = new Set();
const subscribers = new Set<() => void>();

function publish(next: ReadonlySet<number>) {
  recent = next;
  for (const notify of subscribers) notify();
}

/** Highlights the dossiers for 30 s from now. */
export function markCreatedByOthers(ids: readonly number[], ms = HIGHLIGHT_MS): void {
  if (ids.length === 0) return;
  publish(new Set([...recent, ...ids]));
  setTimeout(() => {
    const next = new Set(recent);
    for (const id of ids) next.delete(id);
    publish(next);
  }, ms);
}

export const recentlyCreated = (): ReadonlySet<number> => recent;

function subscribe(notify: () => void) {
  subscribers.add(notify);
  return () => {
    subscribers.delete(notify);
  };
}

/** The dossiers highlighted now. */
export function useRecentlyCreated(): ReadonlySet<number> {
  return useSyncExternalStore(subscribe, recentlyCreated, recentlyCreated);
}
