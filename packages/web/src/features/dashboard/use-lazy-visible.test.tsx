// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAZY_DELAY_MS, useLazyVisible } from './use-lazy-visible';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom has no IntersectionObserver: this one records its observers, and the test reports entries
const observers: { callback: IntersectionObserverCallback; target: Element | null }[] = [];
class FakeObserver {
  private readonly record: (typeof observers)[number];
  constructor(callback: IntersectionObserverCallback) {
    this.record = { callback, target: null };
    observers.push(this.record);
  }
  observe(target: Element) {
    this.record.target = target;
  }
  unobserve() {}
  disconnect() {
    this.record.target = null;
  }
  takeRecords() {
    return [];
  }
}

/** Tells every observer of the page that its element is this much in view. */
function report(ratio: number) {
  for (const { callback, target } of observers) {
    if (!target) continue;
    const entry = {
      target,
      isIntersecting: ratio > 0,
      intersectionRatio: ratio,
      intersectionRect: { height: ratio * 100 },
      rootBounds: { height: 800 },
    } as unknown as IntersectionObserverEntry;
    act(() => callback([entry], {} as IntersectionObserver));
  }
}

function Block({ onSeen }: { onSeen: (seen: boolean) => void }) {
  const { ref, seen } = useLazyVisible<HTMLDivElement>();
  onSeen(seen);
  return <div ref={ref} />;
}

beforeEach(() => {
  vi.useFakeTimers();
  observers.length = 0;
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function mount() {
  let seen = false;
  const root = createRoot(document.createElement('div'));
  act(() =>
    root.render(
      <Block
        onSeen={(s) => {
          seen = s;
        }}
      />,
    ),
  );
  return { seen: () => seen, root };
}

describe('lazy loading of dashboard blocks', () => {
  it('loads a block half visible where it is first drawn at once', () => {
    const block = mount();
    expect(block.seen()).toBe(false);
    report(1);
    expect(block.seen()).toBe(true);
    act(() => block.root.unmount());
  });

  it('loads a block scrolled into view after it stayed half visible for a second', () => {
    const block = mount();
    report(0);
    report(0.6);
    vi.advanceTimersByTime(LAZY_DELAY_MS - 1);
    expect(block.seen()).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(block.seen()).toBe(true);
    act(() => block.root.unmount());
  });

  it('does not load a block that was scrolled past within the second', () => {
    const block = mount();
    report(0);
    report(0.6);
    act(() => vi.advanceTimersByTime(LAZY_DELAY_MS / 2));
    report(0.2);
    act(() => vi.advanceTimersByTime(LAZY_DELAY_MS * 2));
    expect(block.seen()).toBe(false);
    act(() => block.root.unmount());
  });
});
