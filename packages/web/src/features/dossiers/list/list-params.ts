import {
  type Aggregation,
  ARCHIVED_FILTERS,
  type DisplayItem,
  displayItemRows,
  getFieldType,
  isFieldTypeName,
  isItemSortable,
  valueRefsOf,
  valueTypeOf,
} from '@dossierbase/core';
import type { SearchValue } from '../../../fields/types';

// Pure translation between the list screen's state (kept in the address) and the parameters of
// GET /api/contentdossier (spec doc 2 section 7; accepted shapes: server query/list-query.ts).

export type Archived = (typeof ARCHIVED_FILTERS)[number];
export type SortOrder = 'asc' | 'desc';
export interface Sort {
  itemId: number;
  order: SortOrder;
}

export interface ListState {
  /** 1-based, as the pager shows it */
  page: number;
  sort: Sort | null;
  archived: Archived;
  /** search values per search display item id */
  search: Record<string, SearchValue>;
  /** chosen aggregation per list display item id */
  aggregates: Record<string, Aggregation>;
}

/** Ascending, then descending, then no sort; another column starts ascending. */
export function cycleSort(current: Sort | null, itemId: number): Sort | null {
  if (!current || current.itemId !== itemId) return { itemId, order: 'asc' };
  return current.order === 'asc' ? { itemId, order: 'desc' } : null;
}

/** The column type of a list item: its field type, a link, or the type of the dossier data it shows. */
export function columnType(item: DisplayItem): string | null {
  return valueTypeOf(displayItemRows(item));
}

/** Whether the server sorts on this column: not textareas, multiple links or value-less types. */
export function isSortableItem(item: DisplayItem): boolean {
  return isItemSortable(displayItemRows(item));
}

/** The aggregations the field registry allows for the column (links: unique and count). */
export function aggregationsOf(item: DisplayItem): readonly Aggregation[] {
  const type = columnType(item);
  if (!type || !isFieldTypeName(type)) return [];
  return getFieldType(type).aggregations;
}

const TEXTUAL = new Set(['text', 'url', 'email', 'autoIncrement', 'calc', 'amount']);
const NUMERIC = new Set(['autoIncrement', 'calc', 'amount']);
const DATES = new Set(['date', 'systemdate']);

/** YYYY-MM-DD moved by whole days. */
export function shiftDay(ymd: string, days: number): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const isYmd = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
const text = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '');

export type SearchParams = Record<string, string>;

/**
 * The list parameters for one search value of an item ({id}, {id}_type, {id}_end, {id}_min,
 * {id}_max). An incomplete value gives no parameters; an operator the list call cannot express
 * gives 'unsupported'.
 */
export function searchParams(
  itemId: number,
  type: string,
  search: SearchValue | null | undefined,
  currentUserId?: number,
): SearchParams | 'unsupported' {
  if (!search) return {};
  const { operator, value } = search;
  const id = String(itemId);
  if (TEXTUAL.has(type)) {
    let key: string;
    if (['string_like_equals', 'string_exact_equals', 'number_equals'].includes(operator)) key = id;
    else if (NUMERIC.has(type) && operator === 'number_gte') key = `${id}_min`;
    else if (NUMERIC.has(type) && operator === 'number_lte') key = `${id}_max`;
    else return 'unsupported';
    const v = text(value);
    return v ? { [key]: v } : {};
  }
  if (DATES.has(type)) {
    if (operator === 'date_between') {
      const [from, to] = text(value).split(',');
      if (!isYmd(from) || !isYmd(to)) return {};
      return { [id]: from, [`${id}_type`]: 'between', [`${id}_end`]: to };
    }
    const dated: Record<string, [mode: string, shift: number]> = {
      equals: ['on', 0],
      date_gt: ['after', 0],
      date_gte: ['after', -1],
      date_lt: ['before', 0],
      date_lte: ['before', 1],
    };
    const rule = dated[operator];
    if (!rule) return 'unsupported';
    if (!isYmd(value)) return {};
    return { [id]: shiftDay(value, rule[1]), [`${id}_type`]: rule[0] };
  }
  if (valueRefsOf(type) === 'options') {
    if (operator === 'equals') return value === null || value === '' ? {} : { [id]: text(value) };
    if (operator === 'in' && Array.isArray(value)) {
      const ids = value.filter((v) => v !== 'EMPTY').map(text);
      if (ids.length) return { [id]: ids.join(',') };
      return value.includes('EMPTY') ? { [id]: 'EMPTY' } : {};
    }
    return 'unsupported';
  }
  if (valueRefsOf(type) === 'users') {
    if (operator !== 'equals') return 'unsupported';
    if (value === 'CURRENT_USER') return currentUserId ? { [id]: String(currentUserId) } : 'unsupported';
    return text(value) ? { [id]: text(value) } : {};
  }
  return 'unsupported';
}

export const PAGE_PARAM = 'page';

/** The list state from the address (unknown or broken parts fall back to the defaults). */
export function readListState(query: URLSearchParams): ListState {
  const page = Number(query.get(PAGE_PARAM));
  const [sortId, sortOrder] = (query.get('sort') ?? '').split('.');
  const archived = query.get('archived') ?? '';
  const json = <T>(key: string): Record<string, T> => {
    try {
      const parsed = JSON.parse(query.get(key) ?? '{}');
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
    } catch {
      return {};
    }
  };
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    sort:
      /^\d+$/.test(sortId) && (sortOrder === 'asc' || sortOrder === 'desc')
        ? { itemId: Number(sortId), order: sortOrder }
        : null,
    archived: (ARCHIVED_FILTERS as readonly string[]).includes(archived) ? (archived as Archived) : 'none',
    search: json<SearchValue>('search'),
    aggregates: json<Aggregation>('agg'),
  };
}

/** The address query for a list state; defaults are left out so plain lists keep a plain address. */
export function writeListState(state: ListState, base = new URLSearchParams()): URLSearchParams {
  const query = new URLSearchParams(base);
  const set = (key: string, value: string | null) => (value ? query.set(key, value) : query.delete(key));
  set(PAGE_PARAM, state.page > 1 ? String(state.page) : null);
  set('sort', state.sort ? `${state.sort.itemId}.${state.sort.order}` : null);
  set('archived', state.archived !== 'none' ? state.archived : null);
  set('search', Object.keys(state.search).length ? JSON.stringify(state.search) : null);
  set('agg', Object.keys(state.aggregates).length ? JSON.stringify(state.aggregates) : null);
  return query;
}

/** The query string of GET /api/contentdossier for the state (page is 0-based on the wire). */
/** The list call's filter parameters of a search form's values (searches a list cannot run are left out). */
export function searchQueryParams(
  searchItems: readonly DisplayItem[],
  search: ListState['search'],
  currentUserId?: number,
): SearchParams {
  const query: SearchParams = {};
  for (const item of searchItems) {
    const type = columnType(item);
    const params = type ? searchParams(item.id, type, search[item.id], currentUserId) : {};
    if (params !== 'unsupported') Object.assign(query, params);
  }
  return query;
}

export function listQueryString(
  entityId: number,
  state: ListState,
  limit: number,
  searchItems: readonly DisplayItem[],
  currentUserId?: number,
): string {
  const query = new URLSearchParams({
    defDossier: String(entityId),
    limit: String(limit),
    page: String(state.page - 1),
  });
  if (state.archived !== 'none') query.set('archived', state.archived);
  if (state.sort) {
    query.append('sort[]', String(state.sort.itemId));
    query.append('sortOrder[]', state.sort.order);
  }
  for (const [key, value] of Object.entries(searchQueryParams(searchItems, state.search, currentUserId)))
    query.set(key, value);
  for (const [itemId, aggregate] of Object.entries(state.aggregates))
    query.set(`${itemId}_aggregate`, aggregate);
  return query.toString();
}
