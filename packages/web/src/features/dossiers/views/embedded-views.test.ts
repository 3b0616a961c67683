import type { DisplayItem } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import {
  allowedViews,
  limitLinkValues,
  linkSortParams,
  offeredViews,
  rowInputItems,
  startView,
} from './view-logic';

const item = (id: number, over: Partial<DisplayItem> & { dataFieldId?: number } = {}) =>
  ({
    id,
    view: 'list',
    rank: 1,
    col: 1,
    def_dossier_def_field: over.dataFieldId ? { id: over.dataFieldId } : null,
    ...over,
  }) as unknown as DisplayItem;

describe('embedded list views', () => {
  it('offers the views the link allows and the registry has; none configured is the list alone', () => {
    expect(allowedViews({ views: [] } as never)).toEqual(['list']);
    const built = (name: string) => ['list', 'calendar', 'kanban'].includes(name);
    expect(offeredViews(['kanban', 'list', 'calendar'], built)).toEqual(['list', 'calendar', 'kanban']);
    expect(offeredViews(['gantt'], built)).toEqual([]);
  });

  it('starts on the one configured view, else on the list', () => {
    expect(startView(['kanban'])).toBe('kanban');
    expect(startView(['calendar', 'list', 'kanban'])).toBe('list');
    expect(startView(['calendar', 'kanban'])).toBe('calendar');
    expect(startView([])).toBe(null);
  });

  it('puts the row entry items in rank, then col order, and only those of view row_input', () => {
    const items = [
      item(1, { view: 'row_input', rank: 2, col: 1 }),
      item(2, { view: 'row_input', rank: 1, col: 2 }),
      item(3, { view: 'row_input', rank: 1, col: 1 }),
      item(4, { view: 'edit', rank: 0, col: 0 }),
    ];
    expect(rowInputItems(items).map((i) => i.id)).toEqual([3, 2, 1]);
  });

  it("names the link's sort settings by list item, or by dossier data name", () => {
    const items = [item(10, { dataFieldId: 7 }), item(11, { dataFieldId: 8 })];
    expect(
      linkSortParams(
        [
          { dddfId: 8, sort: 'DESC' },
          { dddfId: 'created_at', sort: 'ASC' },
          { dddfId: 99, sort: 'ASC' },
        ],
        items,
      ),
    ).toEqual([
      ['11', 'desc'],
      ['created_at', 'asc'],
    ]);
  });

  it('pre-fills the items of the limit link with the parent, and nothing else', () => {
    const parent = { id: 500, summary: 'Case 500', def_dossier_id: 3, archived: false };
    const items = [
      item(20, { def_dossier_link: { id: 7 } } as never),
      item(21, { def_dossier_link: { id: 8 } } as never),
      item(22, { dataFieldId: 7 }),
    ];
    expect(limitLinkValues(items, { linkId: 7, parent })).toEqual({ '20': [parent] });
    expect(limitLinkValues(items, { linkId: 9, parent })).toEqual({});
    expect(limitLinkValues(items, null)).toEqual({});
  });
});
