// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markCreatedByOthers, recentlyCreated } from './recent-rows';
import { DATA_REFRESH_INTERVAL_MS, DATA_REFRESH_START_MS, useDataRefresh } from './use-data-refresh';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function Refreshing({ enabled, refresh }: { enabled: boolean; refresh: () => void }) {
  useDataRefresh(enabled, refresh);
  return null;
}

describe('data_refresh', () => {
  it('reads again 500 ms after mounting, then every 10 s, and stops when unmounted', () => {
    const refresh = vi.fn();
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Refreshing enabled refresh={refresh} />));
    vi.advanceTimersByTime(DATA_REFRESH_START_MS - 1);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DATA_REFRESH_INTERVAL_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(4);
    act(() => root.unmount());
    vi.advanceTimersByTime(DATA_REFRESH_INTERVAL_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(4);
  });

  it('does nothing without the setting', () => {
    const refresh = vi.fn();
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Refreshing enabled={false} refresh={refresh} />));
    vi.advanceTimersByTime(DATA_REFRESH_INTERVAL_MS * 2);
    expect(refresh).not.toHaveBeenCalled();
    act(() => root.unmount());
  });
});

describe('rows created by another user', () => {
  it('are highlighted for 30 s', () => {
    markCreatedByOthers([41, 42]);
    expect([...recentlyCreated()]).toEqual([41, 42]);
    vi.advanceTimersByTime(29_999);
    expect(recentlyCreated().has(41)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(recentlyCreated().size).toBe(0);
  });
});
