import type { Block, BlockPosition } from '@dossierbase/core';

// The dashboard grid (spec document 1 sections 5 and 9): row height 25, breakpoints lg 1200, md 996,
// sm 768, xs 480 with 12, 12, 12, 6 and 4 columns, blocks at least 5 by 5, and a block without a saved
// position 6 wide and 10 high, at x alternating 0 and 6.

export const ROW_HEIGHT = 25;
export const BREAKPOINTS = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 } as const;
export const COLUMNS = { lg: 12, md: 12, sm: 12, xs: 6, xxs: 4 } as const;
export const MIN_SIZE = 5;
export const DEFAULT_WIDTH = 6;
export const DEFAULT_HEIGHT = 10;

export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW: number;
  minH: number;
}

/** A width or height of zero or less becomes 5, and none is smaller than 5. */
const size = (value: number) => (value > 0 ? Math.max(value, MIN_SIZE) : MIN_SIZE);

/**
 * The grid of the dashboard's top-level blocks: each at its saved position (by uuid), the others 6 by 10
 * below them, at x alternating 0 and 6.
 */
export function gridLayout(blocks: readonly Block[], positions: readonly BlockPosition[]): GridItem[] {
  const saved = new Map(positions.map((p) => [p.uuid, p]));
  const bottom = positions
    .filter((p) => blocks.some((b) => b.uuid === p.uuid))
    .reduce((max, p) => Math.max(max, p.y + size(p.h)), 0);
  let unplaced = 0;
  return blocks.map((block) => {
    const position = saved.get(block.uuid);
    if (position)
      return {
        i: block.uuid,
        x: Math.max(position.x, 0),
        y: Math.max(position.y, 0),
        w: size(position.w),
        h: size(position.h),
        minW: MIN_SIZE,
        minH: MIN_SIZE,
      };
    const index = unplaced++;
    return {
      i: block.uuid,
      x: index % 2 === 0 ? 0 : DEFAULT_WIDTH,
      y: bottom + Math.floor(index / 2) * DEFAULT_HEIGHT,
      w: DEFAULT_WIDTH,
      h: DEFAULT_HEIGHT,
      minW: MIN_SIZE,
      minH: MIN_SIZE,
    };
  });
}

/** The grid as the position call takes it. */
export function positionsToSave(
  layout: readonly { i: string; x: number; y: number; w: number; h: number }[],
) {
  return layout.map((item) => ({
    block: item.i,
    xPos: item.x,
    yPos: item.y,
    blockWidth: size(item.w),
    blockHeight: size(item.h),
  }));
}

/** The blocks the grid holds: shown on the dashboard and not inside a container. */
export const dashboardBlocks = (blocks: readonly Block[]) =>
  blocks.filter((block) => block.dashboard && block.parent === null);

/** A step of the Arrange menu: move by a column or row, or grow or shrink by one. */
export type Adjustment = 'left' | 'right' | 'up' | 'down' | 'wider' | 'narrower' | 'taller' | 'shorter';
export const ADJUSTMENTS: readonly Adjustment[] = [
  'left',
  'right',
  'up',
  'down',
  'wider',
  'narrower',
  'taller',
  'shorter',
];

/** The item after one step, kept inside the 12 columns and at least 5 by 5. */
export function adjusted(item: GridItem, change: Adjustment, columns = 12): GridItem {
  let { x, y, w, h } = item;
  if (change === 'left') x -= 1;
  if (change === 'right') x += 1;
  if (change === 'up') y -= 1;
  if (change === 'down') y += 1;
  if (change === 'wider') w += 1;
  if (change === 'narrower') w -= 1;
  if (change === 'taller') h += 1;
  if (change === 'shorter') h -= 1;
  w = Math.min(Math.max(w, MIN_SIZE), columns);
  h = Math.max(h, MIN_SIZE);
  x = Math.min(Math.max(x, 0), columns - w);
  y = Math.max(y, 0);
  return { ...item, x, y, w, h };
}
