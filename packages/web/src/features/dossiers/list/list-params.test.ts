import type { DisplayItem } from '@dossierbase/core';
import { describe, expect, it } from 'vitest';
import { formatAggregate, secondsToTime } from './aggregates';
import {
  aggregationsOf,
  columnType,
  cycleSort,
  isSortableItem,
  type ListState,
  listQueryString,
  readListState,
  searchParams,
  shiftDay,
  writeListState,
} from './list-params';
import { readPageSize, savePageSize } from './page-size';

function item(id: number, type: string, settings: Record<string, unknown> = {}): DisplayItem {
  return {
    id,
    uuid: `u${id}`,
    def_dossier_id: 1,
    display_position_id: null,
    def_dossier_def_field: {
      id: id + 100,
      uuid: 'v',
      environment_id: 1,
      def_dossier_id: 1,
      name: `Field ${id}`,
      obligatory: false,
      locked: false,
      roles: [],
      permissions_type: 'EXCLUDE_SELECTED_ROLES',
      settings: {},
      def_field: { id: id + 200, uuid: 'w', name: 'f', type, settings },
    },
    def_dossier_link: null,
    view: 'list',
    col: 1,
    rank: 1,
    colspan: 12,
    rowspan: 0,
    roles: [],
    permissions_type: 'EXCLUDE_SELECTED_ROLES',
    translations: [],
    settings: {},
  };
}

function linkItem(id: number, multiple: boolean): DisplayItem {
  return {
    ...item(id, 'text'),
    def_dossier_def_field: null,
    def_dossier_link: {
      id: 9,
      uuid: 'l',
      environment_id: 1,
      def_dossier_id: 1,
      child_def_dossier_id: 2,
      back_link_id: null,
      name: 'Organisation',
      type_of_link: 'select',
      cascade_rule: 'maintain',
      archive_cascade_rule: '',
      obligatory: false,
      locked: false,
      disable_backlink: false,
      settings: { multiple },
    },
  };
}

const defaults: ListState = { page: 1, sort: null, archived: 'none', search: {}, aggregates: {} };

describe('sort cycling', () => {
  it('goes ascending, descending, cleared; another column starts ascending', () => {
    const asc = cycleSort(null, 5);
    expect(asc).toEqual({ itemId: 5, order: 'asc' });
    const desc = cycleSort(asc, 5);
    expect(desc).toEqual({ itemId: 5, order: 'desc' });
    expect(cycleSort(desc, 5)).toBeNull();
    expect(cycleSort(desc, 6)).toEqual({ itemId: 6, order: 'asc' });
  });

  it('only offers sorting where the server sorts', () => {
    expect(isSortableItem(item(1, 'text'))).toBe(true);
    expect(isSortableItem(item(1, 'amount'))).toBe(true);
    expect(isSortableItem(item(1, 'textarea'))).toBe(false);
    expect(isSortableItem(linkItem(1, false))).toBe(true);
    expect(isSortableItem(linkItem(1, true))).toBe(false);
    const created = {
      ...item(1, 'text'),
      def_dossier_def_field: null,
      settings: { dossier_data: 'created_at' },
    };
    expect(columnType(created)).toBe('systemdate');
    expect(isSortableItem(created)).toBe(true);
  });
});

describe('search values to list parameters', () => {
  it('maps text and number operators to {id}, {id}_min and {id}_max', () => {
    expect(searchParams(7, 'text', { operator: 'string_like_equals', value: ' Ann ' })).toEqual({
      '7': 'Ann',
    });
    expect(searchParams(7, 'amount', { operator: 'number_gte', value: '10.5' })).toEqual({ '7_min': '10.5' });
    expect(searchParams(7, 'amount', { operator: 'number_lte', value: '20' })).toEqual({ '7_max': '20' });
    expect(searchParams(7, 'amount', { operator: 'number_equals', value: '20' })).toEqual({ '7': '20' });
    expect(searchParams(7, 'text', { operator: 'number_gte', value: '3' })).toBe('unsupported');
    expect(searchParams(7, 'text', { operator: 'string_empty', value: null })).toBe('unsupported');
    // incomplete values are dropped, not sent empty
    expect(searchParams(7, 'text', { operator: 'string_like_equals', value: '  ' })).toEqual({});
    expect(searchParams(7, 'text', null)).toEqual({});
  });

  it('maps date operators to on / after / before / between', () => {
    expect(searchParams(3, 'date', { operator: 'equals', value: '2026-03-10' })).toEqual({
      '3': '2026-03-10',
      '3_type': 'on',
    });
    expect(searchParams(3, 'date', { operator: 'date_gt', value: '2026-03-10' })).toEqual({
      '3': '2026-03-10',
      '3_type': 'after',
    });
    // on or after the 10th = after the 9th; on or before = before the 11th
    expect(searchParams(3, 'date', { operator: 'date_gte', value: '2026-03-01' })).toEqual({
      '3': '2026-02-28',
      '3_type': 'after',
    });
    expect(searchParams(3, 'systemdate', { operator: 'date_lte', value: '2026-12-31' })).toEqual({
      '3': '2027-01-01',
      '3_type': 'before',
    });
    expect(searchParams(3, 'date', { operator: 'date_between', value: '2026-01-01,2026-02-01' })).toEqual({
      '3': '2026-01-01',
      '3_type': 'between',
      '3_end': '2026-02-01',
    });
    expect(searchParams(3, 'date', { operator: 'date_between', value: '2026-01-01,' })).toEqual({});
    expect(searchParams(3, 'date', { operator: 'date_add_max_days', value: '3' })).toBe('unsupported');
    expect(shiftDay('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('maps options and users to id lists', () => {
    expect(searchParams(4, 'list', { operator: 'equals', value: 12 })).toEqual({ '4': '12' });
    expect(searchParams(4, 'list', { operator: 'equals', value: 'EMPTY' })).toEqual({ '4': 'EMPTY' });
    expect(searchParams(4, 'tree', { operator: 'in', value: [1, 2, 'EMPTY'] })).toEqual({ '4': '1,2' });
    expect(searchParams(4, 'list', { operator: 'in', value: ['EMPTY'] })).toEqual({ '4': 'EMPTY' });
    expect(searchParams(4, 'list', { operator: 'not_equals', value: 1 })).toBe('unsupported');
    expect(searchParams(5, 'user', { operator: 'equals', value: 8 })).toEqual({ '5': '8' });
    expect(searchParams(5, 'user', { operator: 'equals', value: 'CURRENT_USER' }, 42)).toEqual({ '5': '42' });
  });
});

describe('list state in the address and on the wire', () => {
  it('round-trips through the address and leaves defaults out', () => {
    const state: ListState = {
      page: 3,
      sort: { itemId: 5, order: 'desc' },
      archived: 'both',
      search: { '7': { operator: 'string_like_equals', value: 'Ann' } },
      aggregates: { '9': 'sum' },
    };
    const query = writeListState(state, new URLSearchParams('dossierQuery=4'));
    expect(query.get('dossierQuery')).toBe('4');
    expect(readListState(query)).toEqual(state);
    expect(writeListState(defaults).toString()).toBe('');
    expect(readListState(new URLSearchParams('page=-2&sort=x.up&archived=all&search={'))).toEqual(defaults);
  });

  it('builds the collection call: 0-based page, sort arrays, filters and aggregations', () => {
    const searchItems = [item(7, 'text'), item(8, 'date'), item(10, 'text')];
    const query = new URLSearchParams(
      listQueryString(
        4,
        {
          page: 2,
          sort: { itemId: 5, order: 'asc' },
          archived: 'only',
          search: {
            '7': { operator: 'string_like_equals', value: 'Ann' },
            '8': { operator: 'date_lt', value: '2026-01-01' },
            '10': { operator: 'string_empty', value: null },
          },
          aggregates: { '9': 'sum' },
        },
        25,
        searchItems,
      ),
    );
    expect(Object.fromEntries(query)).toEqual({
      defDossier: '4',
      limit: '25',
      page: '1',
      archived: 'only',
      'sort[]': '5',
      'sortOrder[]': 'asc',
      '7': 'Ann',
      '8': '2026-01-01',
      '8_type': 'before',
      '9_aggregate': 'sum',
    });
  });
});

describe('aggregations', () => {
  it('offers what the field registry allows and formats like the column', () => {
    expect(aggregationsOf(item(1, 'amount'))).toEqual(['sum', 'avg', 'min', 'max', 'count']);
    expect(aggregationsOf(linkItem(1, true))).toEqual(['unique', 'count']);
    const amount = item(1, 'amount', { decimals: 2 });
    expect(formatAggregate(amount, { id: 1, aggregate: 'avg', value: 10.456 }, 'en-GB')).toBe('10.46');
    expect(formatAggregate(amount, { id: 1, aggregate: 'count', value: 1234 }, 'en-GB')).toBe('1,234');
    expect(formatAggregate(amount, { id: 1, aggregate: 'sum', value: null }, 'en-GB')).toBe('-');
    expect(secondsToTime(27 * 3600 + 5 * 60)).toBe('27:05');
  });
});

describe('page size per entity in the session', () => {
  function memory() {
    const data = new Map<string, string>();
    return {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
    };
  }

  it('keeps an offered size per entity and falls back to 50', () => {
    const storage = memory();
    expect(readPageSize(1, storage)).toBe(50);
    savePageSize(1, 25, storage);
    expect(readPageSize(1, storage)).toBe(25);
    expect(readPageSize(2, storage)).toBe(50);
    savePageSize(1, 7, storage); // not offered: ignored
    expect(readPageSize(1, storage)).toBe(25);
    storage.setItem('dossier_list_limit_3', '300');
    expect(readPageSize(3, storage)).toBe(50);
    storage.setItem('dossier_list_limit_3', 'abc');
    expect(readPageSize(3, storage)).toBe(50);
  });
});
