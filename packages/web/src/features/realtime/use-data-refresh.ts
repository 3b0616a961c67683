import { useEffect, useRef } from 'react';

// data_refresh of a link (spec doc 2 sections 4 and 9): with the setting on, an embedded list reads its
// rows again every 10 s, the first time 500 ms after it is shown; realtime events come on top of it.

export const DATA_REFRESH_START_MS = 500;
export const DATA_REFRESH_INTERVAL_MS = 10_000;

/** Calls `refresh` 500 ms after mounting and then every 10 s while `enabled`. */
export function useDataRefresh(enabled: boolean, refresh: () => void): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!enabled) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    const start = setTimeout(() => {
      latest.current();
      interval = setInterval(() => latest.current(), DATA_REFRESH_INTERVAL_MS);
    }, DATA_REFRESH_START_MS);
    return () => {
      clearTimeout(start);
      clearInterval(interval);
    };
  }, [enabled]);
}
