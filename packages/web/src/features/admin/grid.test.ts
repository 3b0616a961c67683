import type { DisplayItem } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { layoutInvalid, layoutRows, minimumSpan, movePlacements } from './grid';

const item = (id: number, rank: number, col: number, colspan: number) =>
  ({ id, rank, col, colspan }) as DisplayItem;

describe('designer grid', () => {
  it('gives the minimum span per breakpoint', () => {
    expect([500, 600, 800, 1000, 1300].map(minimumSpan)).toEqual([12, 6, 4, 2, 1]);
  });

  it('starts a new row per rank and orders by column', () => {
    const rows = layoutRows([item(1, 2, 1, 12), item(2, 1, 7, 6), item(3, 1, 1, 6)]);
    expect(rows.map((row) => row.map((cell) => [cell.item.id, cell.col, cell.span]))).toEqual([
      [
        [3, 1, 6],
        [2, 7, 6],
      ],
      [[1, 1, 12]],
    ]);
  });

  it('moves an item next to another and to a new row', () => {
    const items = [item(1, 1, 1, 6), item(2, 1, 7, 6), item(3, 2, 1, 4)];
    expect(movePlacements(items, 3, { itemId: 1 })).toEqual([
      { id: 3, rank: 1, col: 1 },
      { id: 1, rank: 1, col: 5 },
      { id: 2, rank: 1, col: 1 },
    ]);
    expect(movePlacements(items, 1, { newRow: true })).toEqual([
      { id: 2, rank: 1, col: 1 },
      { id: 1, rank: 3, col: 1 },
    ]);
  });
});

describe('display item layout check', () => {
  it('flags col, colspan or rank below 0 or missing', () => {
    expect(layoutInvalid({ col: 1, colspan: 12, rank: 0 })).toBe(false);
    expect(layoutInvalid({ col: -1, colspan: 12, rank: 1 })).toBe(true);
    expect(layoutInvalid({ col: 1, colspan: '', rank: 1 })).toBe(true);
  });
});
