import type { Block } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { adjusted, dashboardBlocks, gridLayout, positionsToSave } from './grid-layout';

const block = (id: number, extra: Partial<Block> = {}): Block => ({
  id,
  uuid: `uuid-${id}`,
  environment: { id: 1 },
  type: 'sum_fields',
  def_dossier: null,
  dossier_query: null,
  parent: null,
  col: 12,
  rank: 0,
  dashboard: true,
  roles: [],
  translations: [],
  settings: {},
  children: [],
  ...extra,
});

describe('gridLayout', () => {
  it('places blocks without a position 6 by 10 at x alternating 0 and 6', () => {
    expect(gridLayout([block(1), block(2), block(3)], []).map(({ x, y, w, h }) => [x, y, w, h])).toEqual([
      [0, 0, 6, 10],
      [6, 0, 6, 10],
      [0, 10, 6, 10],
    ]);
  });

  it('keeps saved positions, makes sizes at least 5 by 5 and puts new blocks below them', () => {
    const layout = gridLayout(
      [block(1), block(2), block(3)],
      [
        { uuid: 'uuid-1', x: 2, y: 0, w: 0, h: 3 },
        { uuid: 'uuid-2', x: 0, y: 5, w: 12, h: 8 },
        { uuid: 'gone', x: 0, y: 100, w: 6, h: 6 },
      ],
    );
    expect(layout.map(({ i, x, y, w, h }) => [i, x, y, w, h])).toEqual([
      ['uuid-1', 2, 0, 5, 5],
      ['uuid-2', 0, 5, 12, 8],
      ['uuid-3', 0, 13, 6, 10],
    ]);
    expect(layout.every((item) => item.minW === 5 && item.minH === 5)).toBe(true);
  });

  it('saves the grid in the call form and leaves out container children and hidden blocks', () => {
    expect(positionsToSave([{ i: 'uuid-1', x: 1, y: 2, w: 3, h: 7 }])).toEqual([
      { block: 'uuid-1', xPos: 1, yPos: 2, blockWidth: 5, blockHeight: 7 },
    ]);
    const blocks = [block(1), block(2, { parent: { id: 1 } }), block(3, { dashboard: false })];
    expect(dashboardBlocks(blocks).map((b) => b.id)).toEqual([1]);
  });
});

describe('adjusted', () => {
  const item = { i: 'a', x: 6, y: 0, w: 6, h: 10, minW: 5, minH: 5 };
  it('moves and resizes by one step, inside the 12 columns and at least 5 by 5', () => {
    expect(adjusted(item, 'left')).toMatchObject({ x: 5, w: 6 });
    expect(adjusted(item, 'right')).toMatchObject({ x: 6 });
    expect(adjusted(item, 'up')).toMatchObject({ y: 0 });
    expect(adjusted(item, 'down')).toMatchObject({ y: 1 });
    expect(adjusted(item, 'wider')).toMatchObject({ x: 5, w: 7 });
    expect(adjusted({ ...item, w: 5 }, 'narrower')).toMatchObject({ w: 5 });
    expect(adjusted(item, 'taller')).toMatchObject({ h: 11 });
    expect(adjusted({ ...item, h: 5 }, 'shorter')).toMatchObject({ h: 5 });
  });
});
