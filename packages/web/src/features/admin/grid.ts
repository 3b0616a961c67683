import type { DisplayItem, DisplayPosition } from '@dossierbase/core';

/** The designer shows these views inside positions (spec doc 3 section 5). */
export const DESIGNER_VIEWS = ['show/edit', 'edit', 'show'] as const;

/** Minimum column span per viewport width: 576, 768, 992, 1200 px give 12, 6, 4, 2 and 1 above. */
export function minimumSpan(width: number): number {
  if (width < 576) return 12;
  if (width < 768) return 6;
  if (width < 992) return 4;
  if (width < 1200) return 2;
  return 1;
}

export interface GridCell {
  item: DisplayItem;
  /** 1-based start column and span, clamped to the 12-column grid. */
  col: number;
  span: number;
}

/** Items grouped in rows by rank (a different rank starts a new row), ordered by column inside a row. */
export function layoutRows(items: readonly DisplayItem[], minSpan = 1): GridCell[][] {
  const byRank = new Map<number, DisplayItem[]>();
  for (const item of items) {
    const row = byRank.get(item.rank) ?? [];
    row.push(item);
    byRank.set(item.rank, row);
  }
  return [...byRank.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) =>
      row
        .sort((a, b) => a.col - b.col || a.id - b.id)
        .map((item) => {
          const span = Math.min(12, Math.max(minSpan, item.colspan || 12));
          const col = minSpan >= 12 ? 1 : Math.min(Math.max(1, item.col || 1), 13 - span);
          return { item, col, span };
        }),
    );
}

export interface Placement {
  id: number;
  rank: number;
  col: number;
}

/**
 * The new rank and col of every item of a position after moving `activeId` onto `overId`
 * (an item, or `row:{rank}` / `row:new` for a row drop zone). Only changed items are returned.
 */
export function movePlacements(
  items: readonly DisplayItem[],
  activeId: number,
  over: { itemId?: number; newRow?: boolean },
): Placement[] {
  const rows = layoutRows(items).map((row) => row.map((cell) => cell.item));
  const flat = rows.flat();
  const activeIndex = flat.findIndex((item) => item.id === activeId);
  if (activeIndex < 0) return [];
  const active = flat[activeIndex];
  const overIndex = over.itemId === undefined ? -1 : flat.findIndex((item) => item.id === over.itemId);
  for (const row of rows) {
    const index = row.indexOf(active);
    if (index >= 0) row.splice(index, 1);
  }
  if (over.newRow) rows.push([active]);
  else {
    if (overIndex < 0 || over.itemId === activeId) return [];
    const overItem = flat[overIndex];
    const row = rows.find((r) => r.includes(overItem));
    if (!row) return [];
    const index = row.indexOf(overItem);
    row.splice(activeIndex < overIndex ? index + 1 : index, 0, active);
  }
  const result: Placement[] = [];
  rows
    .filter((row) => row.length > 0)
    .forEach((row, rowIndex) => {
      let col = 1;
      for (const item of row) {
        const span = Math.min(12, Math.max(1, item.colspan || 12));
        const start = col + span > 13 ? 1 : col;
        if (rowIndex + 1 !== item.rank || start !== item.col)
          result.push({ id: item.id, rank: rowIndex + 1, col: start });
        col = start + span;
      }
    });
  return result;
}

/** The Layout tab's error icon: col, colspan or rank below 0 or missing. */
export function layoutInvalid(values: { col: unknown; colspan: unknown; rank: unknown }): boolean {
  return [values.col, values.colspan, values.rank].some(
    (value) => typeof value !== 'number' || !Number.isFinite(value) || value < 0,
  );
}

/** New ranks for the positions of one type after moving one of them a step left (-1) or right (+1). */
export function movePosition(
  positions: readonly DisplayPosition[],
  position: DisplayPosition,
  step: -1 | 1,
): { id: number; rank: number }[] {
  const group = positions.filter((p) => p.type === position.type);
  const index = group.findIndex((p) => p.id === position.id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= group.length) return [];
  const order = [...group];
  [order[index], order[target]] = [order[target], order[index]];
  return order.flatMap((p, rank) => (p.rank === rank ? [] : [{ id: p.id, rank }]));
}
