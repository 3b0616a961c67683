import { useCallback, useMemo, useState } from 'react';

// Blocks the user hid from a view of the dashboard (spec document 1 section 4: hiding removes a block
// locally and it can be restored). Kept in this browser per environment, user and view (mine or the
// default one), by the blocks' uuids.

function read(key: string): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function useHiddenBlocks(environment: number, user: number, view: string) {
  const key = `dashboard_hidden:${environment}:${user}:${view}`;
  // the list read for the current key; another view's key reads its own list
  const [stored, setStored] = useState<{ key: string; uuids: string[] }>(() => ({ key, uuids: read(key) }));
  const uuids = stored.key === key ? stored.uuids : read(key);
  const write = useCallback(
    (change: (current: string[]) => string[]) =>
      setStored((current) => {
        const next = change(current.key === key ? current.uuids : read(key));
        localStorage.setItem(key, JSON.stringify(next));
        return { key, uuids: next };
      }),
    [key],
  );
  const joined = uuids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: joined stands for the uuids
  const hidden = useMemo(() => new Set(uuids), [joined]);
  return {
    hidden,
    hide: (uuid: string) => write((current) => (current.includes(uuid) ? current : [...current, uuid])),
    restore: (uuid: string) => write((current) => current.filter((u) => u !== uuid)),
    restoreAll: () => write(() => []),
  };
}
