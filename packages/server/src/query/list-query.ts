import {
  type Aggregation,
  ARCHIVED_FILTERS,
  DEFAULT_PAGE_SIZE,
  DOSSIER_MESSAGES,
  dossierListLimitSchema,
  type ListFilterColumn,
  listFiltersToQuery,
  type QueryDocument,
  todayYmd,
} from '@dossierbase/core';
import type { RawBuilder } from 'kysely';
import type { LinkRow } from '../policy/display-item';
import type { SummaryKeys } from '../policy/summary';

export type { Column } from './compile/columns';

import { aggregationsOf } from './compile/aggregate';
import { type Column, filterColumnOf } from './compile/columns';
import { QueryCompileError } from './compile/conditions';
import { compileDocument, type EntityScope } from './compile/document';
import { sortExpression } from './compile/sort';

// The collection parameters of GET /api/contentdossier (spec doc 2 section 7), checked against the
// columns the user may see: filters through the query model (core listFiltersToQuery) and the one
// compiler (compile/document.ts), sorts (compile/sort.ts) and aggregations (compile/aggregate.ts); the
// page, count and aggregation statements are in compile/page.ts and compile/aggregate.ts. Every value
// the caller sends travels as a parameter; only ids read from our own configuration rows (and checked
// to be integers) are written into the SQL text.

export const LIST_MESSAGES = {
  unknownItem: DOSSIER_MESSAGES.unknownItem,
  notSortable: 'This field cannot be sorted',
  invalidValue: 'Enter a valid value',
  invalidDate: 'Enter a valid date',
  invalidNumber: 'Enter a valid number',
  invalidAggregate: 'Unknown aggregation',
  unsupported: 'This filter is not supported for this field',
} as const;

export interface ListParams {
  defDossierId: number;
  environmentId: number;
  limit: number;
  page: number;
  archived: (typeof ARCHIVED_FILTERS)[number];
  /** the list's own filters (summary and per-column parameters) in the query model */
  document: QueryDocument;
  /** the reader's summary keys per entity (policy/summary.ts): which summary they may see and search */
  summaryKeys: SummaryKeys;
  /**
   * linked list mode: dossiers linked to this parent through `link`; with `limit` (the link's
   * limit_embedded_link, a link of the child entity) only those whose `limit` link holds the parent too
   */
  embedded: { parentId: number; link: LinkRow; limit?: LinkRow | null } | null;
  /** the filters compiled (compile/document.ts, and a saved query's); null: no filter at all */
  condition: RawBuilder<boolean> | null;
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

const AGGREGATE_PARAM = /^(\d{1,10})_aggregate$/;
export interface ParseResult {
  params: ListParams;
  errors: Record<string, string>;
  /** whether the parse read today's date (a relative date condition): its result holds for today only */
  readToday: boolean;
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
  /** the reader (the logged-in user of user conditions) */
  userId: number;
}

/** The listed entity as the compiler reads it: the fields of the columns the user may filter on. */
function listEntityScope(ctx: ParseContext): EntityScope {
  const fields = new Map<number, Column>();
  const links = new Map<number, LinkRow>();
  for (const column of ctx.filterable.values()) {
    if (column.kind === 'field') fields.set(column.dataFieldId, column);
    if (column.kind === 'link') links.set(column.link.id, column.link);
  }
  return {
    defDossierId: ctx.defDossierId,
    fields,
    links,
    summaryKey: ctx.summaryKeys?.get(ctx.defDossierId),
  };
}

/**
 * The entities the list's link filters reach. Those filters name linked dossiers by id only (the
 * dossier's own column), so no field of the linked entity is read.
 */
function linkedEntityScopes(ctx: ParseContext): Map<number, EntityScope> {
  const scopes = new Map<number, EntityScope>();
  for (const column of ctx.filterable.values())
    if (column.kind === 'link') {
      const id = column.link.child_def_dossier_id;
      scopes.set(id, {
        defDossierId: id,
        fields: new Map(),
        links: new Map(),
        summaryKey: ctx.summaryKeys?.get(id),
      });
    }
  return scopes;
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
    document: { combinators: [], include_archived: 'both' },
    condition: null,
    summaryKeys: ctx.summaryKeys ?? new Map(),
    embedded: ctx.embedded,
    sorts: [],
    aggregations: [],
    indexUse: { equalities: [], sort: null },
  };
  let readToday = false;
  // Filters: the parameters in the query model (core), compiled by the one compiler.
  const filterColumns = new Map<number, ListFilterColumn>();
  for (const [itemId, column] of ctx.filterable) {
    const filterColumn = filterColumnOf(column);
    if (filterColumn) filterColumns.set(itemId, filterColumn);
  }
  const translated = listFiltersToQuery(query, filterColumns);
  Object.assign(errors, translated.errors);
  params.document = { combinators: translated.combinators, include_archived: 'both' };
  for (const itemId of translated.equalities) {
    const column = ctx.filterable.get(itemId);
    if (column?.kind === 'field') params.indexUse.equalities.push(column);
  }
  if (Object.keys(errors).length === 0 && params.document.combinators.length) {
    try {
      params.condition = compileDocument(params.document, listEntityScope(ctx), {
        environmentId: ctx.environmentId,
        userId: ctx.userId,
        // read only by relative date conditions, which the list's own parameters never make
        get today() {
          readToday = true;
          return todayYmd();
        },
        entities: linkedEntityScopes(ctx),
        queries: new Map(),
      });
    } catch (error) {
      if (!(error instanceof QueryCompileError)) throw error;
      errors[error.field] = error.message;
    }
  }

  // {id}_aggregate per visible column
  for (const [key, raw] of Object.entries(query)) {
    const m = AGGREGATE_PARAM.exec(key);
    const name = first(raw)?.trim();
    if (!m || !name) continue;
    const column = ctx.filterable.get(Number(m[1]));
    if (!column) errors[key] = LIST_MESSAGES.unknownItem;
    else if (!(aggregationsOf(column) as string[]).includes(name))
      errors[key] = LIST_MESSAGES.invalidAggregate;
    else params.aggregations.push({ column, aggregate: name as Aggregation, param: key });
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
  return { params, errors, readToday };
}
