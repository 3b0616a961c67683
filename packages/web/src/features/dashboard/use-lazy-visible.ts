import { useIntersection } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

// A block reads its data once it has been half visible for a second (spec document 1 section 4:
// 50 percent visible, 100 px margin, 1 s delay), so a long dashboard does not ask for every block at
// once. The delay is for blocks scrolled into view: a block already half visible when it is first
// drawn (the first screen of the dashboard) reads at once. Once seen it stays loaded.

export const LAZY_DELAY_MS = 1000;
// one object for every render: the hook observes anew (and forgets what it saw) when its options change
const OBSERVE: IntersectionObserverInit = { rootMargin: '100px', threshold: [0, 0.25, 0.5, 0.75, 1] };

/** Half of the element in view, or (for a block taller than the window) half of the window filled by it. */
function halfVisible(entry: IntersectionObserverEntry | null): boolean {
  if (!entry?.isIntersecting) return false;
  if (entry.intersectionRatio >= 0.5) return true;
  const root = entry.rootBounds?.height ?? window.innerHeight;
  return root > 0 && entry.intersectionRect.height >= root / 2;
}

export function useLazyVisible<T extends HTMLElement>(eager = false) {
  const { ref, entry } = useIntersection<T>(OBSERVE);
  const [seen, setSeen] = useState(eager);
  const visible = halfVisible(entry);
  // the observer's first report tells where the block was drawn
  const first = useRef(true);
  useEffect(() => {
    if (!entry || !first.current) return;
    first.current = false;
    if (halfVisible(entry)) setSeen(true);
  }, [entry]);
  useEffect(() => {
    if (seen || !visible) return;
    const timer = window.setTimeout(() => setSeen(true), LAZY_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [seen, visible]);
  return { ref, seen };
}
