import { LRUCache } from 'lru-cache';
import type { VisibleItem } from '../policy/display-item';
import type { SummaryKeys } from '../policy/summary';
import { type Column, columnOf } from './compile/columns';
import { type ListParams, type ParseResult, parseLimit, parseListParams, parsePage } from './list-query';

// The list call's parameters parsed and compiled once per reader class and configuration: the same
// list asked again (refreshed, paged back, by a colleague with the same roles) is not parsed again,
// about 0.1 ms of every list call (the columns, the filters in the query model, their SQL). Keyed by
// the visible-items array (by a serial number given to each), which policy/config-cache.ts holds once
// per configuration version and reader standing, so a configuration change or another standing
// starts afresh; the summary keys come from the same version and standing. Then by what else the
// parse reads: the query string (but the page and its size, read again each time), the reader (user
// conditions) and the linked list mode. Only valid parameters that did not read today's date are
// kept, at most MAX_KEPT on a node: a flood of distinct filters costs its parses, not memory.

const MAX_KEPT = 1_000;
const parsed = new LRUCache<string, ListParams>({ max: MAX_KEPT });
const serials = new WeakMap<readonly VisibleItem[], number>();
let lastSerial = 0;

function serialOf(visible: readonly VisibleItem[]): number {
  let serial = serials.get(visible);
  if (serial === undefined) {
    serial = ++lastSerial;
    serials.set(visible, serial);
  }
  return serial;
}

export interface ListParamsContext {
  defDossierId: number;
  environmentId: number;
  /** the visible items of the list, search and advanced-search views (policy/display-item.ts visibleItems) */
  visible: readonly VisibleItem[];
  summaryKeys: SummaryKeys;
  embedded: ListParams['embedded'];
  userId: number;
}

/** parseListParams over the visible items' columns, from the cache when asked before. */
export function listParamsOf(
  query: Record<string, unknown>,
  ctx: ListParamsContext,
): Omit<ParseResult, 'readToday'> {
  const { embedded } = ctx;
  const { page, limit, ...filters } = query;
  const key = JSON.stringify([
    serialOf(ctx.visible),
    ctx.defDossierId,
    ctx.environmentId,
    ctx.userId,
    embedded && [embedded.parentId, embedded.link.id, embedded.limit?.id ?? null],
    filters,
  ]);
  // a copy: the caller narrows its params further (a saved query, a view's condition)
  const hit = parsed.get(key);
  if (hit)
    return {
      params: {
        ...hit,
        page: parsePage(page),
        limit: parseLimit(limit),
        embedded,
        summaryKeys: ctx.summaryKeys,
      },
      errors: {},
    };

  const summaryKey = ctx.summaryKeys.get(ctx.defDossierId);
  const filterable = new Map<number, Column>();
  for (const v of ctx.visible) {
    const column = columnOf(v, summaryKey);
    if (column && column.itemId !== null) filterable.set(v.item.id, column);
  }
  const { params, errors, readToday } = parseListParams(query, {
    defDossierId: ctx.defDossierId,
    environmentId: ctx.environmentId,
    filterable,
    embedded,
    summaryKeys: ctx.summaryKeys,
    userId: ctx.userId,
  });
  if (Object.keys(errors).length === 0 && !readToday) parsed.set(key, { ...params });
  return { params, errors };
}
