import type { Expression, Selectable, SelectQueryBuilder } from 'kysely';
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import { compiledPerShape, perShape } from '../../db/compiled-once';
import type { Db } from '../../db/database';
import { partitionOf } from '../../db/partitions';
import type { Database } from '../../db/schema';
import { type SignInCheck, signedInReadSql } from '../../policy/environment';
import { countedTotalQuery, coversWholeEntity } from '../dossier-counts';
import {
  type EntityVersions,
  entityVersionsSql,
  linkedDossiersOf,
  type PageLinkedDossier,
  type PageLinks,
  pageLinkRefsOf,
  summedDataVersion,
} from '../linked-dossiers';
import { queryKey } from '../list-cache';
import type { ListParams } from '../list-query';
import { summarySql } from '../visible-summary';
import { holdingDossier, linkedToDossier } from './links';

// The filtered set of a list (no order, no paging), one page of it with what the answer carries beside
// each row, and its count.

export type ListQuery = SelectQueryBuilder<Database, 'content_dossier', object>;

/** The filtered set (no order, no paging): the base of the page, the count and the aggregations. */
export function filteredQuery(db: Db, params: ListParams): ListQuery {
  // the environment's partition under the parent's name: every expression refers to content_dossier
  const dossiers = sql<Database['content_dossier']>`${partitionOf('content_dossier', params.environmentId)}`;
  let q: ListQuery = db
    .selectFrom(dossiers.as('content_dossier'))
    .where('content_dossier.environment_id', '=', params.environmentId)
    .where('content_dossier.def_dossier_id', '=', params.defDossierId);
  if (params.archived === 'none') q = q.where('content_dossier.archived', '=', false);
  else if (params.archived === 'only') q = q.where('content_dossier.archived', '=', true);
  if (params.embedded) {
    const { parentId, link } = params.embedded;
    const linked = linkedToDossier(params.environmentId, parentId, link.id, link.back_link_id);
    q = q.where(sql<boolean>`content_dossier.id in (${linked})`);
    // limit_embedded_link: only the children whose own link (to the parent's entity) holds the parent too
    const { limit } = params.embedded;
    if (limit) {
      const holding = holdingDossier(params.environmentId, parentId, limit.id, limit.back_link_id);
      q = q.where(sql<boolean>`content_dossier.id in (${holding})`);
    }
  }
  if (params.condition) q = q.where(params.condition);
  return q;
}

/**
 * One page of the filtered set, in the requested order (newest first by default): `paging` the params'
 * page unless given (placeholders, when the statement is compiled once, see pageWithRelations).
 */
export function pageQuery(
  db: Db,
  params: ListParams,
  paging = { limit: params.limit, offset: params.page * params.limit },
) {
  let q = filteredQuery(db, params).selectAll('content_dossier');
  for (const s of params.sorts) q = q.orderBy(sql`${s.expression} ${sql.raw(s.direction)}`);
  // id last keeps pages stable, in the direction of the first key (one index scan serves both)
  const tie = params.sorts[0]?.direction ?? 'desc';
  q = q.orderBy('content_dossier.id', tie);
  return q.limit(paging.limit).offset(paging.offset);
}

/** The filtered set in the page's order, nothing selected yet (an export of the whole list). */
export function orderedQuery(db: Db, params: ListParams): ListQuery {
  let q = filteredQuery(db, params);
  for (const s of params.sorts) q = q.orderBy(sql`${s.expression} ${sql.raw(s.direction)}`);
  return q.orderBy('content_dossier.id', params.sorts[0]?.direction ?? 'desc');
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
  linked: PageLinkedDossier[];
};

const isoUtc = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * One page and everything the list call needs beside it, in one statement: the data version of
 * `dataVersionOf` (the entity and the entities linked to it: the key of its cached totals and of the
 * per-node caches of each row's links and of the linked dossiers, query/linked-dossiers.ts, which read
 * after the page only what changed since they were filled) and, per row, the dossiers linked through
 * `links` in rank order (the usernames of creator and last editor come from policy/usernames.ts). A
 * list request is bound by its statements (each costs a round trip on both sides), not by this work on
 * 50 rows. The outer order repeats the page's, so the join cannot reorder it; an empty page still
 * answers the version. With `signIn`, the statement carries the call's sign-in read too; with
 * `withCountedTotal`, a list of the whole entity carries its total from the entity's counters
 * (query/dossier-counts.ts), which took a round trip of its own after the page.
 *
 * The statement is compiled once per shape (db/compiled-once.ts): per parsed filters and sort (the
 * objects list-params-cache.ts keeps per reader class and configuration) and what else its SQL reads;
 * the page, its size and the sign-in read's values are its arguments.
 */
export async function pageWithRelations(
  db: Db,
  params: ListParams,
  links: PageLinks,
  dataVersionOf: readonly number[],
  signIn: SignInCheck | null = null,
  { withCountedTotal = false } = {},
): Promise<PageWithRelations> {
  const carriesTotal = withCountedTotal && coversWholeEntity(params);
  const shape = {
    owners: [db, params.sorts, params.condition ?? NO_FILTER] as const,
    key: JSON.stringify([
      ...filteredSetShape(params),
      params.summaryKeys.get(params.defDossierId) ?? null,
      dataVersionOf,
      carriesTotal,
    ]),
  };
  // the arguments: the page, then the sign-in read's values
  const args = [params.limit, params.page * params.limit];
  if (signIn) args.push(signIn.environmentId, signIn.claims.userId, signIn.claims.sessionId);
  const rows = await pageStatement(
    shape,
    (...[limit, offset, environmentId, userId, sessionId]: number[]) =>
      relationsStatement(
        params,
        dataVersionOf,
        sql`(${pageQuery(db, params, { limit, offset })})`,
        null,
        signIn ? signedInReadSql({ userId, sessionId }, environmentId) : null,
        carriesTotal ? countedTotalQuery(db, params) : null,
      ),
    args,
  );
  return withRelations(db, params, links, rows, signIn);
}

/** The page statement, compiled once per shape (see pageWithRelations). */
const pageStatement = compiledPerShape<StatementRow>();
/** Stands for the condition of a list without filters among a shape's owners. */
const NO_FILTER = {};

/** What the filtered set's SQL reads besides its condition (see filteredQuery). */
function filteredSetShape(params: ListParams): unknown[] {
  const { embedded } = params;
  return [
    params.environmentId,
    params.defDossierId,
    params.archived,
    embedded && [embedded.parentId, embedded.link.id, embedded.link.back_link_id],
    embedded?.limit && [embedded.limit.id, embedded.limit.back_link_id],
  ];
}

const filteredSetKeys = perShape<string>();

/**
 * The filtered set as a key of cached figures: its count statement's SQL and values (list-cache.ts
 * queryKey), compiled once per parsed filters (as the page statement is).
 */
export const filteredSetKey = (db: Db, params: ListParams): string =>
  filteredSetKeys(
    { owners: [db, params.condition ?? NO_FILTER], key: JSON.stringify(filteredSetShape(params)) },
    () => queryKey(countQuery(db, params).compile()),
  );

/**
 * The first page of each column of a board (a kanban's list options) and what the list call carries
 * beside each row, in one statement: per option id of `columns` (in that order), the page query of the
 * filtered set narrowed by `inColumn` (given the option id as SQL), each row with its `board_column`. One
 * statement where the board's columns took a list call each.
 */
export async function columnPagesWithRelations(
  db: Db,
  params: ListParams,
  links: PageLinks,
  dataVersionOf: readonly number[],
  columns: readonly number[],
  inColumn: (option: RawBuilder<number>) => RawBuilder<boolean>,
): Promise<{ rows: (PageRow & { board_column: number })[]; dataVersion: string }> {
  const option = sql<number>`o.option_id`;
  const narrowed: ListParams = {
    ...params,
    condition: params.condition
      ? sql<boolean>`(${params.condition} and ${inColumn(option)})`
      : inColumn(option),
  };
  // per option, the column's page: the same plan as one column's call (its index, in page order)
  const source = sql`(select o.option_id as board_column, o.n as board_column_n, p.*
    from unnest(${sql.val([...columns])}::int[]) with ordinality as o(option_id, n)
    cross join lateral (${pageQuery(db, narrowed)}) as p)`;
  const statement = relationsStatement(
    params,
    dataVersionOf,
    source,
    {
      select: sql`content_dossier.board_column`,
      order: sql`content_dossier.board_column_n`,
    },
    null,
  );
  const { rows, dataVersion } = await withRelations(
    db,
    params,
    links,
    (await statement.execute(db)).rows,
    null,
  );
  return { rows: rows as (PageRow & { board_column: number })[], dataVersion };
}

/** A row of relationsStatement: a page row before its linked dossiers are looked up. */
type StatementRow = Omit<PageRow, 'linked'> & {
  versions: EntityVersions | null;
  signed_in?: string;
  counted_total?: string | number | null;
};

/** The page rows, the data version they were read at and, when the statement carried it, the total. */
export interface PageWithRelations {
  rows: PageRow[];
  dataVersion: string;
  /** the whole entity's total from its counters (pageWithRelations' `withCountedTotal`), else null */
  countedTotal: number | null;
}

/**
 * The rows of `source` (aliased content_dossier) in the page's order, with the data version and, with
 * `signInRead`, the call's sign-in read.
 */
function relationsStatement(
  params: ListParams,
  dataVersionOf: readonly number[],
  source: RawBuilder<unknown>,
  group: { select: RawBuilder<unknown>; order: RawBuilder<unknown> } | null,
  signInRead: RawBuilder<string> | null,
  countedTotal: Expression<unknown> | null = null,
) {
  const tie = params.sorts[0]?.direction ?? 'desc';
  const order = [
    ...(group ? [group.order] : []),
    ...params.sorts.map((s) => sql`${s.expression} ${sql.raw(s.direction)}`),
    sql`content_dossier.id ${sql.raw(tie)}`,
  ];
  // Only the columns the answer uses: `summaries` (every reader class's summary) stays in the database.
  return sql<StatementRow>`select v.versions, content_dossier.id,
      content_dossier.def_dossier_id, content_dossier.environment_id, content_dossier.archived,
      content_dossier.values, content_dossier.created_by, content_dossier.modified_by,
      ${summarySql('content_dossier', params.summaryKeys.get(params.defDossierId))} as summary,
      ${isoUtc('content_dossier.created_at')} as created_at, ${isoUtc('content_dossier.modified_at')} as modified_at
      ${group ? sql`, ${group.select}` : sql``}
      ${signInRead ? sql`, case when row_number() over () = 1 then v.signed_in end as signed_in` : sql``}
      ${countedTotal ? sql`, v.counted_total` : sql``}
    from (select ${entityVersionsSql(dataVersionOf)} as versions
      ${signInRead ? sql`, ${signInRead} as signed_in` : sql``}
      ${countedTotal ? sql`, (${countedTotal}) as counted_total` : sql``}) v
    left join ${source} as content_dossier on true
    order by ${sql.join(order)}`;
}

/** The statement's rows as page rows, with their linked dossiers; the sign-in read left in `signIn`. */
async function withRelations(
  db: Db,
  params: ListParams,
  links: PageLinks,
  rows: StatementRow[],
  signIn: SignInCheck | null,
): Promise<PageWithRelations> {
  // one row carries the sign-in read (of 50 rows, 49 copies of its kilobyte would be sent for nothing)
  if (signIn) signIn.answer = rows.find((row) => row.signed_in != null)?.signed_in;
  const versions = rows[0]?.versions ?? null;
  const counted = rows[0]?.counted_total;
  const pageRows = rows.filter((row) => row.id !== null);
  // (the cache keeps what every reader class sees; the reader's summary is chosen from it)
  const refs = await pageLinkRefsOf(
    db,
    params.environmentId,
    params.defDossierId,
    links,
    pageRows.map((row) => Number(row.id)),
    versions,
  );
  const linked = await linkedDossiersOf(db, params.environmentId, refs, versions, params.summaryKeys);
  return {
    dataVersion: summedDataVersion(versions),
    rows: pageRows.map(({ versions: _v, signed_in: _s, counted_total: _t, ...row }, i) => ({
      ...row,
      linked: linked[i] ?? [],
    })),
    countedTotal: counted == null ? null : Number(counted),
  };
}

export function countQuery(db: Db, params: ListParams) {
  return filteredQuery(db, params).select(sql<number>`count(*)`.as('count'));
}

/** How many dossiers the filtered set holds, counting no further than `limit` + 1 (a short read). */
export async function countUpTo(db: Db, params: ListParams, limit: number): Promise<number> {
  const capped = filteredQuery(db, params)
    .select(sql`1`.as('one'))
    .limit(limit + 1)
    .as('capped');
  const { n } = await db.selectFrom(capped).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(n);
}

/** Rows the planner expects the filtered query to return (its statistics, no scan). */
export async function plannerEstimate(db: Db, params: ListParams): Promise<number> {
  const query = filteredQuery(db, params).select(sql`1`.as('one')).compile();
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] | string }>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
  return Math.round(Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0));
}
