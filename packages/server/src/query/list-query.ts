import {
  type Aggregation,
  ARCHIVED_FILTERS,
  DEFAULT_PAGE_SIZE,
  DOSSIER_MESSAGES,
  dossierListLimitSchema,
  getFieldType,
  type ListFilterColumn,
  listFiltersToQuery,
  type QueryDocument,
  todayYmd,
  valueRefsOf,
} from '@dossierbase/core';
import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import type { LinkRow } from '../policy/display-item';
import type { SummaryKeys } from '../policy/summary';

export type { Column } from './compile/columns';

import { type Column, DOSSIER_DATA, filterColumnOf, SORT_NAMES } from './compile/columns';
import { QueryCompileError } from './compile/conditions';
import { compileDocument, type EntityScope } from './compile/document';
import { checkedId } from './field-expression';
import { dataVersionSql } from './list-cache';
import { summaryExpression, summaryOfAnyEntitySql, summarySql } from './visible-summary';

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
  /** linked list mode: dossiers linked to this parent through `link` */
  embedded: { parentId: number; link: LinkRow } | null;
  /** the document compiled (compile/document.ts); `true` without filters */
  condition: RawBuilder<boolean>;
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
    condition: sql<boolean>`true`,
    summaryKeys: ctx.summaryKeys ?? new Map(),
    embedded: ctx.embedded,
    sorts: [],
    aggregations: [],
    indexUse: { equalities: [], sort: null },
  };
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
  if (Object.keys(errors).length === 0) {
    try {
      params.condition = compileDocument(params.document, listEntityScope(ctx), {
        environmentId: ctx.environmentId,
        userId: ctx.userId,
        // read only by relative date conditions, which the list's own parameters never make
        get today() {
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
  return { params, errors };
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

export type ListQuery = SelectQueryBuilder<Database, 'content_dossier', object>;

/** The filtered set (no order, no paging): the base of the page, the count and the aggregations. */
export function filteredQuery(db: Db, params: ListParams): ListQuery {
  let q = db
    .selectFrom('content_dossier')
    .where('content_dossier.environment_id', '=', params.environmentId)
    .where('content_dossier.def_dossier_id', '=', params.defDossierId);
  if (params.archived === 'none') q = q.where('content_dossier.archived', '=', false);
  else if (params.archived === 'only') q = q.where('content_dossier.archived', '=', true);
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
  if (params.document.combinators.length) q = q.where(params.condition);
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
  | 'id'
  | 'def_dossier_id'
  | 'environment_id'
  | 'archived'
  | 'values'
  | 'created_by'
  | 'modified_by'
  | 'summary'
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
