import {
  type Aggregation,
  ARCHIVED_FILTERS,
  DATE_FILTER_TYPES,
  DEFAULT_PAGE_SIZE,
  DOSSIER_MESSAGES,
  dossierListLimitSchema,
  type FieldTypeName,
  fieldSettingsOf,
  getFieldType,
  isFieldTypeName,
  isItemSortable,
  parseDateTime,
  parseLocaleNumber,
  type SqlCast,
  toYmd,
  valueRefsOf,
  type Ymd,
  ymdToIso,
} from '@dossierbase/core';
import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import type { LinkRow, VisibleItem } from '../policy/display-item';
import type { SummaryKeys } from '../policy/summary';
import { checkedId, valueExpression } from './field-expression';
import { dataVersionSql } from './list-cache';
import { summaryContainsSql, summaryExpression, summaryOfAnyEntitySql, summarySql } from './visible-summary';

// Compiles the collection parameters of GET /api/contentdossier (spec doc 2 section 7) to one
// parameterised query. Every value the caller sends travels as a parameter; only ids read from
// our own configuration rows (and checked to be integers) are written into the SQL text.

export const LIST_MESSAGES = {
  unknownItem: DOSSIER_MESSAGES.unknownItem,
  notSortable: 'This field cannot be sorted',
  invalidValue: 'Enter a valid value',
  invalidDate: 'Enter a valid date',
  invalidNumber: 'Enter a valid number',
  invalidAggregate: 'Unknown aggregation',
  unsupported: 'This filter is not supported for this field',
} as const;

/**
 * The dossier's own columns: what a display item shows through settings.dossier_data or a system
 * field (systemdate, systemuser) through its dossier_data setting, and the sort names.
 */
const DOSSIER_DATA: Record<string, { column: string; type: FieldTypeName; cast: SqlCast }> = {
  id: { column: 'content_dossier.id', type: 'autoIncrement', cast: 'bigint' },
  dossier_id: { column: 'content_dossier.id', type: 'autoIncrement', cast: 'bigint' },
  summary: { column: 'content_dossier.summary', type: 'text', cast: 'text' },
  created_at: { column: 'content_dossier.created_at', type: 'systemdate', cast: 'timestamptz' },
  modified_at: { column: 'content_dossier.modified_at', type: 'systemdate', cast: 'timestamptz' },
  created_by: { column: 'content_dossier.created_by', type: 'systemuser', cast: 'bigint' },
  modified_by: { column: 'content_dossier.modified_by', type: 'systemuser', cast: 'bigint' },
};
const SORT_NAMES = ['id', 'summary', 'created_at', 'modified_at'];

/** One column a filter, sort or aggregation can address. */
export type Column = (
  | {
      kind: 'field';
      itemId: number;
      dataFieldId: number;
      type: FieldTypeName;
      settings: Record<string, unknown>;
      cast: SqlCast;
      /** the SQL text of the value (same text as its expression index) */
      expression: string;
    }
  | {
      /** one of the dossier's own columns (DOSSIER_DATA) */
      kind: 'data';
      itemId: number | null;
      key: string;
      type: FieldTypeName;
      cast: SqlCast;
      expression: string;
    }
  | { kind: 'link'; itemId: number; link: LinkRow; multiple: boolean }
) & { sortable: boolean };

function dataColumn(itemId: number, key: string, summaryKey: string | undefined): Column {
  const data = DOSSIER_DATA[key];
  const expression = key === 'summary' ? summaryExpression('content_dossier', summaryKey) : data.column;
  return { kind: 'data', itemId, key, type: data.type, cast: data.cast, expression, sortable: true };
}

/**
 * The column behind a visible display item, null for items that hold no value (buttons, text).
 * `summaryKey`: the reader's summary key of the item's entity (policy/summary.ts), for the summary.
 * Settings are the item's merged settings (core fieldSettingsOf), as the dossier form reads them.
 */
export function columnOf(visible: VisibleItem, summaryKey?: string): Column | null {
  const { item, dataField, field, link } = visible;
  const sortable = isItemSortable(visible);
  if (link) {
    const multiple = fieldSettingsOf(visible).multiple === true;
    return { kind: 'link', itemId: item.id, link, multiple, sortable };
  }
  if (dataField && field && isFieldTypeName(field.type)) {
    const type = field.type;
    const settings = fieldSettingsOf(visible);
    const source = getFieldType(type).source(settings);
    // a system field shows one of the dossier's own columns, as a dossier-data item does
    if (source.from === 'column') return dataColumn(item.id, source.column, summaryKey);
    const cast = getFieldType(type).sqlCast(settings);
    const expression = valueExpression(dataField.id, cast);
    if (!expression) return null;
    return {
      kind: 'field',
      itemId: item.id,
      dataFieldId: dataField.id,
      type,
      settings,
      cast,
      expression,
      sortable,
    };
  }
  const key = item.settings?.dossier_data;
  if (typeof key === 'string' && Object.hasOwn(DOSSIER_DATA, key))
    return dataColumn(item.id, key, summaryKey);
  return null;
}

/** Values that are ids of list options or users (a JSON number, or a list of them when multiple). */
const holdsOptionsOrUsers = (type: FieldTypeName) => {
  const refs = valueRefsOf(type);
  return refs === 'options' || refs === 'users';
};

export interface ListParams {
  defDossierId: number;
  environmentId: number;
  limit: number;
  page: number;
  archived: (typeof ARCHIVED_FILTERS)[number];
  summary: string | null;
  /** the reader's summary keys per entity (policy/summary.ts): which summary they may see and search */
  summaryKeys: SummaryKeys;
  /** linked list mode: dossiers linked to this parent through `link` */
  embedded: { parentId: number; link: LinkRow } | null;
  filters: RawBuilder<boolean>[];
  sorts: { expression: RawBuilder<unknown>; direction: 'asc' | 'desc' }[];
  aggregations: { column: Column; aggregate: Aggregation; param: string }[];
  /** what an index could serve (sort-indexes.ts): fields filtered on one value, and the field sorted on */
  indexUse: { equalities: FieldColumn[]; sort: FieldColumn | null };
}

export type FieldColumn = Extract<Column, { kind: 'field' }>;

type Raw = Record<string, unknown>;
const first = (v: unknown): string | undefined => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one : typeof one === 'number' ? String(one) : undefined;
};
const all = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) =>
    typeof x === 'string' || typeof x === 'number' ? [String(x)] : [],
  );

/** The page size asked for (the route refuses one outside 1 to MAX_LIST_LIMIT), else the default. */
export function parseLimit(raw: unknown): number {
  const parsed = dossierListLimitSchema.safeParse(first(raw));
  return parsed.success ? parsed.data : DEFAULT_PAGE_SIZE;
}

export function parsePage(raw: unknown): number {
  const text = first(raw);
  const n = text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : 0;
  return Math.min(n, 1_000_000);
}

export function parseArchived(raw: unknown): ListParams['archived'] {
  const text = first(raw);
  return (ARCHIVED_FILTERS as readonly string[]).includes(text ?? '')
    ? (text as ListParams['archived'])
    : 'none';
}

/** Escapes LIKE wildcards so the text is matched literally (the escape character is \). */
export const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const ITEM_PARAM = /^(\d{1,10})(?:_(type|end|min|max|aggregate))?$/;
const isEmptyValue = (v: string | undefined) => v === undefined || v.trim() === '';

function dayBounds(ymd: Ymd, column: Column): { start: string; next: string } {
  const withTime = column.kind !== 'link' && column.cast === 'timestamptz';
  const nextDay = new Date(Date.UTC(ymd.year, ymd.month - 1, ymd.day + 1));
  const nextYmd = {
    year: nextDay.getUTCFullYear(),
    month: nextDay.getUTCMonth() + 1,
    day: nextDay.getUTCDate(),
  };
  if (!withTime) return { start: ymdToIso(ymd), next: ymdToIso(nextYmd) };
  // Amsterdam day boundaries as UTC instants in the stored text form.
  const start = parseDateTime(`${ymdToIso(ymd)}T00:00`) as Date;
  const next = parseDateTime(`${ymdToIso(nextYmd)}T00:00`) as Date;
  return { start: start.toISOString(), next: next.toISOString() };
}

/** The expression compared with a date parameter: ISO text for values, the column for data. */
function dateOperand(column: Column, value: string): RawBuilder<unknown> {
  if (column.kind === 'data') return sql`cast(${value} as timestamptz)`;
  return sql`${value}`;
}

interface ParseResult {
  params: ListParams;
  errors: Record<string, string>;
}

export interface ParseContext {
  defDossierId: number;
  environmentId: number;
  /** columns the user may filter on: visible items of list, search and advanced-search */
  filterable: Map<number, Column>;
  /** columns the user may sort and aggregate on: visible list items (plus search items) */
  embedded: ListParams['embedded'];
  /** the reader's summary keys per entity; none: every summary as stored */
  summaryKeys?: SummaryKeys;
}

/** Validates the collection parameters against the columns the user may see. */
export function parseListParams(query: Raw, ctx: ParseContext): ParseResult {
  const errors: Record<string, string> = {};
  const params: ListParams = {
    defDossierId: ctx.defDossierId,
    environmentId: ctx.environmentId,
    limit: parseLimit(query.limit),
    page: parsePage(query.page),
    archived: parseArchived(query.archived),
    summary: null,
    summaryKeys: ctx.summaryKeys ?? new Map(),
    embedded: ctx.embedded,
    filters: [],
    sorts: [],
    aggregations: [],
    indexUse: { equalities: [], sort: null },
  };
  const summary = first(query.summary);
  if (!isEmptyValue(summary)) {
    if ((summary as string).length > 255) errors.summary = LIST_MESSAGES.invalidValue;
    else params.summary = (summary as string).trim();
  }

  // Group the item parameters per display item id.
  const perItem = new Map<number, Map<string, { key: string; value: string | undefined }>>();
  for (const [key, raw] of Object.entries(query)) {
    const m = ITEM_PARAM.exec(key);
    if (!m) continue;
    const id = Number(m[1]);
    const suffix = m[2] ?? '';
    const value = first(raw);
    if (!perItem.has(id)) perItem.set(id, new Map());
    perItem.get(id)?.set(suffix, { key, value });
  }

  for (const [itemId, parts] of perItem) {
    const column = ctx.filterable.get(itemId);
    const present = [...parts.values()].filter((p) => !isEmptyValue(p.value));
    if (present.length === 0) continue; // empty search values are dropped (spec doc 2 section 5)
    if (!column) {
      for (const p of present) errors[p.key] = LIST_MESSAGES.unknownItem;
      continue;
    }
    const aggregate = parts.get('aggregate');
    if (aggregate && !isEmptyValue(aggregate.value)) {
      const name = (aggregate.value as string).trim();
      const allowed = aggregationsOf(column);
      if (!(allowed as string[]).includes(name)) errors[aggregate.key] = LIST_MESSAGES.invalidAggregate;
      else params.aggregations.push({ column, aggregate: name as Aggregation, param: aggregate.key });
    }
    const filter = compileFilter(column, itemId, parts, errors, ctx.environmentId);
    if (filter) params.filters.push(filter);
    if (filter && column.kind === 'field' && isEquality(column, present))
      params.indexUse.equalities.push(column);
  }

  // sort[] and sortOrder[] (also accepted without the brackets)
  const sorts = [...all(query['sort[]']), ...all(query.sort)];
  const orders = [...all(query['sortOrder[]']), ...all(query.sortOrder)];
  sorts.slice(0, 5).forEach((name, index) => {
    const order = (orders[index] ?? 'ASC').toUpperCase();
    const direction = order === 'DESC' ? 'desc' : 'asc';
    if (order !== 'ASC' && order !== 'DESC') errors.sortOrder = LIST_MESSAGES.invalidValue;
    const sort = sortExpression(name, ctx.filterable, params.summaryKeys, ctx);
    if (sort === 'unknown') errors.sort = LIST_MESSAGES.unknownItem;
    else if (sort === 'unsortable') errors.sort = LIST_MESSAGES.notSortable;
    else {
      params.sorts.push({ expression: sort.expression, direction });
      if (sorts.length === 1 && sort.column?.kind === 'field') params.indexUse.sort = sort.column;
    }
  });
  return { params, errors };
}

/**
 * A filter that keeps one value of the field (one option, user or number, nothing else asked): an
 * index on that field followed by the sort field reads the page in order.
 */
function isEquality(column: FieldColumn, present: { key: string; value: string | undefined }[]): boolean {
  if (present.length !== 1 || present[0].key.includes('_')) return false;
  const value = (present[0].value ?? '').trim();
  if (column.cast === 'numeric' || column.cast === 'bigint') return parseNumber(value) !== null;
  const single = holdsOptionsOrUsers(column.type) && column.settings.multiple !== true;
  return single && /^\d{1,15}$/.test(value);
}

function aggregationsOf(column: Column): readonly Aggregation[] {
  if (column.kind === 'link') return ['unique', 'count'];
  return getFieldType(column.type).aggregations;
}

function sortExpression(
  name: string,
  columns: Map<number, Column>,
  summaryKeys: SummaryKeys,
  { defDossierId, environmentId }: { defDossierId: number; environmentId: number },
): { expression: RawBuilder<unknown>; column?: Column } | 'unknown' | 'unsortable' {
  if (name === 'summary')
    return { expression: sql.raw(summaryExpression('content_dossier', summaryKeys.get(defDossierId))) };
  if (SORT_NAMES.includes(name)) return { expression: sql.raw(DOSSIER_DATA[name].column) };
  const m = /^(dfl_)?(\d{1,10})$/.exec(name);
  if (!m) return 'unknown';
  const id = Number(m[2]);
  let column: Column | undefined;
  if (m[1]) {
    // dfl_{linkId}: the list item that shows that link
    column = [...columns.values()].find((c) => c.kind === 'link' && c.link.id === id);
  } else column = columns.get(id);
  if (!column) return 'unknown';
  if (!column.sortable) return 'unsortable';
  if (column.kind === 'link')
    return { expression: sql`(${linkedSummary(column.link, summaryKeys, environmentId)})`, column };
  return { expression: sql.raw(column.expression), column };
}

// The subqueries below name the environment as a value, not as the outer row's column: only a value
// lets the planner prune content_link to the environment's partition (a correlated column would have
// it plan a scan of every tenant's partition).

/** The summary (the one the reader sees) of the first dossier linked through a (single) link, for sorting. */
function linkedSummary(link: LinkRow, summaryKeys: SummaryKeys, environmentId: number): RawBuilder<unknown> {
  const forward = sql.raw(checkedId(link.id));
  const back = link.back_link_id ? sql.raw(checkedId(link.back_link_id)) : null;
  // the linked dossiers are of the link's child entity, from either side
  const summary = sql.raw(summaryExpression('l', summaryKeys.get(link.child_def_dossier_id)));
  const viaForward = sql`(select ${summary} from content_link cl
    join content_dossier l on l.id = cl.child_id and l.environment_id = cl.environment_id
    where cl.environment_id = ${environmentId} and cl.link_id = ${forward}
      and cl.parent_id = content_dossier.id order by cl.rank, cl.id limit 1)`;
  if (!back) return viaForward;
  return sql`coalesce(${viaForward}, (select ${summary} from content_link cl
    join content_dossier l on l.id = cl.parent_id and l.environment_id = cl.environment_id
    where cl.environment_id = ${environmentId} and cl.link_id = ${back}
      and cl.child_id = content_dossier.id order by cl.rank, cl.id limit 1))`;
}

/** Dossiers linked to any of `ids` through the link, read in both directions. */
function linkedTo(link: LinkRow, ids: number[], environmentId: number): RawBuilder<boolean> {
  const forward = sql.raw(checkedId(link.id));
  const viaForward = sql<boolean>`exists (select 1 from content_link cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${forward}
    and cl.parent_id = content_dossier.id and cl.child_id in (${sql.join(ids)}))`;
  if (!link.back_link_id) return viaForward;
  const back = sql.raw(checkedId(link.back_link_id));
  return sql<boolean>`(${viaForward} or exists (select 1 from content_link cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${back}
    and cl.child_id = content_dossier.id and cl.parent_id in (${sql.join(ids)})))`;
}

function parseIds(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 100) return null;
  const ids = parts.map((p) => (/^\d{1,15}$/.test(p) ? Number(p) : Number.NaN));
  return ids.every((n) => Number.isSafeInteger(n) && n > 0) ? [...new Set(ids)] : null;
}

function parseNumber(text: string): number | null {
  const n = parseLocaleNumber(text.trim());
  return n !== null && Number.isFinite(n) && Math.abs(n) < 1e15 ? n : null;
}

function compileFilter(
  column: Column,
  itemId: number,
  parts: Map<string, { key: string; value: string | undefined }>,
  errors: Record<string, string>,
  environmentId: number,
): RawBuilder<boolean> | null {
  const get = (suffix: string) => {
    const p = parts.get(suffix);
    return p && !isEmptyValue(p.value) ? (p.value as string).trim() : undefined;
  };
  const key = (suffix: string) => parts.get(suffix)?.key ?? `${itemId}${suffix ? `_${suffix}` : ''}`;
  const value = get('');
  const conditions: RawBuilder<boolean>[] = [];

  if (column.kind === 'link') {
    for (const suffix of ['type', 'end', 'min', 'max'])
      if (get(suffix)) errors[key(suffix)] = LIST_MESSAGES.unsupported;
    if (value === undefined) return null;
    const ids = parseIds(value);
    if (!ids) errors[key('')] = LIST_MESSAGES.invalidValue;
    else conditions.push(linkedTo(column.link, ids, environmentId));
    return conditions[0] ?? null;
  }

  const expr = sql.raw(column.expression);
  const type = column.type;
  const isDate = type === 'date' || type === 'systemdate';
  const isNumber = column.cast === 'numeric' || column.cast === 'bigint';

  if (isDate) {
    for (const suffix of ['min', 'max']) if (get(suffix)) errors[key(suffix)] = LIST_MESSAGES.unsupported;
    if (value === undefined) {
      if (get('type') || get('end')) errors[key('')] = DOSSIER_MESSAGES.required;
      return null;
    }
    const mode = get('type') ?? 'on';
    if (!(DATE_FILTER_TYPES as readonly string[]).includes(mode)) {
      errors[key('type')] = LIST_MESSAGES.invalidValue;
      return null;
    }
    const from = toYmd(value);
    if (!from) {
      errors[key('')] = LIST_MESSAGES.invalidDate;
      return null;
    }
    const a = dayBounds(from, column);
    if (mode === 'on') {
      conditions.push(sql<boolean>`${expr} >= ${dateOperand(column, a.start)}`);
      conditions.push(sql<boolean>`${expr} < ${dateOperand(column, a.next)}`);
    } else if (mode === 'after') {
      conditions.push(sql<boolean>`${expr} >= ${dateOperand(column, a.next)}`);
    } else if (mode === 'before') {
      conditions.push(sql<boolean>`${expr} < ${dateOperand(column, a.start)}`);
    } else {
      const endText = get('end');
      const to = endText ? toYmd(endText) : null;
      if (!to) {
        errors[key('end')] = endText ? LIST_MESSAGES.invalidDate : DOSSIER_MESSAGES.required;
        return null;
      }
      const b = dayBounds(to, column);
      conditions.push(sql<boolean>`${expr} >= ${dateOperand(column, a.start)}`);
      conditions.push(sql<boolean>`${expr} < ${dateOperand(column, b.next)}`);
    }
    return sql<boolean>`(${sql.join(conditions, sql` and `)})`;
  }

  if (get('type') || get('end')) {
    if (get('type')) errors[key('type')] = LIST_MESSAGES.unsupported;
    if (get('end')) errors[key('end')] = LIST_MESSAGES.unsupported;
  }

  if (isNumber || type === 'calc') {
    const numeric =
      column.cast === 'numeric' || column.cast === 'bigint'
        ? expr
        : sql.raw(`((${column.expression})::numeric)`);
    for (const [suffix, op] of [
      ['min', '>='],
      ['max', '<='],
    ] as const) {
      const text = get(suffix);
      if (text === undefined) continue;
      const n = parseNumber(text);
      if (n === null) errors[key(suffix)] = LIST_MESSAGES.invalidNumber;
      else conditions.push(sql<boolean>`${numeric} ${sql.raw(op)} ${n}`);
    }
    if (value !== undefined) {
      if (type === 'autoIncrement' || type === 'calc' || column.cast === 'numeric') {
        // the number itself; an autoIncrement may be typed with its prefix
        const digits = type === 'autoIncrement' ? value.replace(/^\D+/, '') : value;
        const n = parseNumber(digits);
        if (n === null) errors[key('')] = LIST_MESSAGES.invalidNumber;
        else conditions.push(sql<boolean>`${numeric} = ${n}`);
      } else {
        const n = parseNumber(value);
        if (n === null) errors[key('')] = LIST_MESSAGES.invalidNumber;
        else conditions.push(sql<boolean>`${numeric} = ${n}`);
      }
    }
    return conditions.length ? sql<boolean>`(${sql.join(conditions, sql` and `)})` : null;
  }

  for (const suffix of ['min', 'max']) if (get(suffix)) errors[key(suffix)] = LIST_MESSAGES.unsupported;
  if (value === undefined) return null;

  if (column.cast === 'jsonb' && holdsOptionsOrUsers(type)) {
    if (value.toUpperCase() === 'EMPTY') return sql<boolean>`(${expr} is null or ${expr} = 'null'::jsonb)`;
    const ids = parseIds(value);
    if (!ids) {
      errors[key('')] = LIST_MESSAGES.invalidValue;
      return null;
    }
    if (column.kind === 'field' && column.settings.multiple === true) {
      const contains = ids.map((id) => sql<boolean>`${expr} @> cast(${JSON.stringify([id])} as jsonb)`);
      return sql<boolean>`(${sql.join(contains, sql` or `)})`;
    }
    return sql<boolean>`${expr} in (${sql.join(ids.map((id) => sql`cast(${JSON.stringify(id)} as jsonb)`))})`;
  }
  if (column.kind === 'data' && column.type === 'systemuser') {
    const ids = parseIds(value);
    if (!ids) {
      errors[key('')] = LIST_MESSAGES.invalidValue;
      return null;
    }
    return sql<boolean>`${expr} in (${sql.join(ids)})`;
  }
  if (column.cast === 'text' || column.cast === 'jsonb') {
    if (value.length > 255) {
      errors[key('')] = LIST_MESSAGES.invalidValue;
      return null;
    }
    const text = column.cast === 'jsonb' ? sql.raw(`(${column.expression})::text`) : expr;
    return sql<boolean>`${text} ilike ${likeContains(value)}`;
  }
  if (column.cast === 'interval' && column.kind === 'field') {
    return sql<boolean>`${sql.raw(`("values" ->> '${checkedId(column.dataFieldId)}')`)} = ${value}`;
  }
  errors[key('')] = LIST_MESSAGES.unsupported;
  return null;
}

export type ListQuery = SelectQueryBuilder<Database, 'content_dossier', object>;

/** The filtered set (no order, no paging): the base of the page, the count and the aggregations. */
export function filteredQuery(db: Db, params: ListParams): ListQuery {
  let q = db
    .selectFrom('content_dossier')
    .where('content_dossier.environment_id', '=', params.environmentId)
    .where('content_dossier.def_dossier_id', '=', params.defDossierId);
  if (params.archived === 'none') q = q.where('content_dossier.archived', '=', false);
  else if (params.archived === 'only') q = q.where('content_dossier.archived', '=', true);
  if (params.summary) {
    const key = params.summaryKeys.get(params.defDossierId);
    q = q.where(summaryContainsSql('content_dossier', key, params.summary));
  }
  if (params.embedded) {
    const { parentId, link } = params.embedded;
    const env = params.environmentId;
    const forward = sql.raw(checkedId(link.id));
    const back = link.back_link_id ? sql.raw(checkedId(link.back_link_id)) : null;
    q = q.where(
      back
        ? sql<boolean>`content_dossier.id in (select cl.child_id from content_link cl where cl.environment_id = ${env} and cl.link_id = ${forward} and cl.parent_id = ${parentId}
            union select cl.parent_id from content_link cl where cl.environment_id = ${env} and cl.link_id = ${back} and cl.child_id = ${parentId})`
        : sql<boolean>`content_dossier.id in (select cl.child_id from content_link cl where cl.environment_id = ${env} and cl.link_id = ${forward} and cl.parent_id = ${parentId})`,
    );
  }
  for (const filter of params.filters) q = q.where(filter);
  return q;
}

/** One page of the filtered set, in the requested order (newest first by default). */
export function pageQuery(db: Db, params: ListParams) {
  let q = filteredQuery(db, params).selectAll('content_dossier');
  for (const s of params.sorts) q = q.orderBy(sql`${s.expression} ${sql.raw(s.direction)}`);
  // id last keeps pages stable, in the direction of the first key (one index scan serves both)
  const tie = params.sorts[0]?.direction ?? 'desc';
  q = q.orderBy('content_dossier.id', tie);
  return q.limit(params.limit).offset(params.page * params.limit);
}

/** Link ids whose linked dossiers a page carries: forward links and the back links that mirror them. */
export interface PageLinks {
  forward: number[];
  backward: number[];
}

/** A dossier linked to a page row, as the page statement returns it (`forward`: row is the parent). */
export interface PageLinkedDossier {
  link_id: number;
  forward: boolean;
  id: number;
  summary: string;
  def_dossier_id: number;
  archived: boolean;
}

/**
 * A page row: the dossier columns the list answers, with `summary` already the one the reader may
 * see and the dates as ISO text (formatted by PostgreSQL, not parsed into Date and printed again).
 */
export type PageRow = Pick<
  Selectable<Database['content_dossier']>,
  'id' | 'def_dossier_id' | 'environment_id' | 'archived' | 'values' | 'created_by' | 'modified_by' | 'summary'
> & {
  created_at: string;
  modified_at: string;
  created_by_username: string | null;
  modified_by_username: string | null;
  linked: PageLinkedDossier[];
};

const isoUtc = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * One page and everything the list call needs beside it, in one statement: the entity's data version
 * (the key of its cached totals), the usernames of creator and last editor and, per row, the dossiers
 * linked through `links` in rank order. A list request is bound by its statements (each costs a round
 * trip on both sides), not by this work on 50 rows. The outer order repeats the page's, so the joins
 * cannot reorder it; an empty page still answers the version.
 */
export async function pageWithRelations(
  db: Db,
  params: ListParams,
  links: PageLinks,
): Promise<{ rows: PageRow[]; dataVersion: string }> {
  const env = params.environmentId;
  const parts: RawBuilder<unknown>[] = [];
  const summary = summaryOfAnyEntitySql('d', params.summaryKeys);
  if (links.forward.length)
    parts.push(sql`select cl.link_id, true as forward, d.id, ${summary} as summary, d.def_dossier_id, d.archived, cl.rank, cl.id as cl_id
      from content_link cl join content_dossier d on d.id = cl.child_id and d.environment_id = cl.environment_id
      where cl.environment_id = ${env} and cl.link_id in (${sql.join(links.forward)}) and cl.parent_id = content_dossier.id`);
  if (links.backward.length)
    parts.push(sql`select cl.link_id, false, d.id, ${summary}, d.def_dossier_id, d.archived, cl.rank, cl.id
      from content_link cl join content_dossier d on d.id = cl.parent_id and d.environment_id = cl.environment_id
      where cl.environment_id = ${env} and cl.link_id in (${sql.join(links.backward)}) and cl.child_id = content_dossier.id`);
  const linked = parts.length
    ? sql`(select coalesce(json_agg(json_build_object('link_id', x.link_id, 'forward', x.forward, 'id', x.id,
          'summary', x.summary, 'def_dossier_id', x.def_dossier_id, 'archived', x.archived) order by x.rank, x.cl_id), '[]')
        from (${sql.join(parts, sql` union all `)}) x)`
    : sql`'[]'::json`;
  const tie = params.sorts[0]?.direction ?? 'desc';
  const order = [
    ...params.sorts.map((s) => sql`${s.expression} ${sql.raw(s.direction)}`),
    sql`content_dossier.id ${sql.raw(tie)}`,
  ];
  // Only the columns the answer uses: `summaries` (every reader class's summary) stays in the database.
  const { rows } = await sql<PageRow & { data_version: string }>`select v.data_version, content_dossier.id,
      content_dossier.def_dossier_id, content_dossier.environment_id, content_dossier.archived,
      content_dossier.values, content_dossier.created_by, content_dossier.modified_by,
      ${summarySql('content_dossier', params.summaryKeys.get(params.defDossierId))} as summary,
      ${isoUtc('content_dossier.created_at')} as created_at, ${isoUtc('content_dossier.modified_at')} as modified_at,
      cu.username as created_by_username, mu.username as modified_by_username, ${linked} as linked
    from (select ${dataVersionSql(params.defDossierId)} as data_version) v
    left join (${pageQuery(db, params)}) as content_dossier on true
    left join app_user cu on cu.id = content_dossier.created_by
    left join app_user mu on mu.id = content_dossier.modified_by
    order by ${sql.join(order)}`.execute(db);
  return {
    dataVersion: rows[0]?.data_version ?? '0',
    rows: rows.filter((row) => row.id !== null),
  };
}

export function countQuery(db: Db, params: ListParams) {
  return filteredQuery(db, params).select(sql<number>`count(*)`.as('count'));
}

export interface AggregationRun {
  /** rows in the filtered set: the scan that computes the plain aggregates counts them too */
  total: number;
  results: {
    id: number;
    aggregate: string;
    value: number | null;
    options?: { id: number; total: number }[];
  }[];
}

/**
 * Value of each aggregation over the filtered set, and its total. The plain aggregates (sum, avg,
 * count, ...) and the total share one scan; option counts and link counts need a query each, run
 * beside it.
 */
export async function runAggregations(db: Db, params: ListParams): Promise<AggregationRun> {
  const results: AggregationRun['results'] = [];
  const plain: { index: number; id: number; aggregate: string; selection: RawBuilder<unknown> }[] = [];
  const optionsOf = new Map<number, { id: number; total: number }[]>();
  const separate = Promise.all(
    params.aggregations.map(async ({ column, aggregate }, index) => {
      const id = column.itemId ?? 0;
      const base = filteredQuery(db, params);
      if (column.kind === 'link') {
        const forward = sql.raw(checkedId(column.link.id));
        const backward = column.link.back_link_id
          ? sql`union all select cl.parent_id, cl.child_id from content_link cl where cl.environment_id = ${params.environmentId} and cl.link_id = ${sql.raw(checkedId(column.link.back_link_id))}`
          : sql``;
        const linked = sql`(select cl.child_id as linked, cl.parent_id as owner from content_link cl where cl.environment_id = ${params.environmentId} and cl.link_id = ${forward} ${backward})`;
        const counted = aggregate === 'unique' ? sql`count(distinct x.linked)` : sql`count(distinct x.owner)`;
        const { rows } = await sql<{ v: unknown }>`select ${counted} as v from ${linked} x
          where x.owner in (${base.select('content_dossier.id')})`.execute(db);
        results[index] = { id, aggregate, value: toNumber(rows[0]?.v) };
        return;
      }
      const expr = sql.raw(column.expression);
      if (column.kind === 'field' && valueRefsOf(column.type) === 'options') {
        const element =
          column.settings.multiple === true
            ? sql.raw(
                `jsonb_array_elements(case jsonb_typeof(${column.expression}) when 'array' then ${column.expression} else '[]'::jsonb end)`,
              )
            : expr;
        // the value (how many have an option) comes from the shared scan, the options from this one
        plain.push({ index, id, aggregate, selection: sql`count(${expr})` });
        const rows = await base
          .select([sql<string>`(${element})::text`.as('option'), sql<number>`count(*)`.as('total')])
          .where(sql<boolean>`${expr} is not null`)
          .groupBy(sql`1`)
          .execute();
        // an option is a whole number, as the counters of query/dossier-counts.ts count them
        const options = rows
          .filter((r) => /^[0-9]{1,15}$/.test(r.option))
          .map((r) => ({ id: Number(r.option), total: Number(r.total) }))
          .sort((a, b) => b.total - a.total || a.id - b.id);
        optionsOf.set(index, options);
        return;
      }
      let selection: RawBuilder<unknown>;
      if (aggregate === 'count') selection = sql`count(${expr})`;
      else if (aggregate === 'unique') selection = sql`count(distinct ${expr})`;
      else if (column.cast === 'interval')
        selection = sql`extract(epoch from ${sql.raw(aggregate)}(${expr}))`;
      else selection = sql`${sql.raw(aggregate)}(${expr})`;
      plain.push({ index, id, aggregate, selection });
    }),
  );
  // Every query above was started before its first await, so `plain` is complete here.
  const shared = filteredQuery(db, params)
    .select([sql`count(*)`.as('total'), ...plain.map((p, i) => p.selection.as(`v${i}`))])
    .executeTakeFirst() as Promise<Record<string, unknown> | undefined>;
  const [row] = await Promise.all([shared, separate]);
  plain.forEach(({ index, id, aggregate }, i) => {
    const raw = row?.[`v${i}`];
    // dates keep their ISO text (min/max of a date column)
    const value =
      raw instanceof Date
        ? raw.toISOString()
        : typeof raw === 'string' && !/^-?[\d.]+(e[-+]?\d+)?$/i.test(raw)
          ? raw
          : toNumber(raw);
    results[index] = { id, aggregate, value: value as number | null };
  });
  for (const [index, options] of optionsOf) results[index] = { ...results[index], options };
  return { total: Number(row?.total ?? 0), results };
}

function toNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
