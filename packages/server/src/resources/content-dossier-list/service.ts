import {
  type AggregationResult,
  DOSSIER_COLUMNS,
  type DossierColumn,
  type DossierListBody,
  dossierColumnValue,
  dossierIdParamSchema,
  fieldSettingsOf,
  fieldTypeOf,
  getFieldType,
  type ItemValue,
  idParamSchema,
  isFieldTypeName,
  type LinkedDossier,
  makePager,
  type QuickSearchHit,
  type ValueSource,
  valueRefsOf,
} from '@dossierbase/core';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, UserRow } from '../../db/schema';
import { badRequest } from '../../http-errors';
import { type LinkRow, type VisibleItem, visibleItems, visibleListOptions } from '../../policy/display-item';
import { authorize, canShowDossiers } from '../../policy/dossier';
import {
  entitiesShownToRoles,
  entityAndLinkedIds,
  entityPermissions,
  openEntityScope,
} from '../../policy/entity';
import {
  canQuickSearch,
  type EnvironmentAccess,
  isEnvironmentAdmin,
  openEnvironment,
  type SignInCheck,
} from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { usernamesOf } from '../../policy/usernames';
import { columnOf } from '../../query/compile/columns';
import {
  columnPagesWithRelations,
  countQuery,
  orderedQuery,
  type PageRow,
  pageWithRelations,
} from '../../query/compile/page';
import { ensureFieldIndexesOnce, type FieldIndexOptions } from '../../query/field-indexes';
import type { PageLinkedDossier, PageLinks } from '../../query/linked-dossiers';
import { listParamsOf } from '../../query/list-params-cache';
import { type ListParams, likeContains } from '../../query/list-query';
import { countAndAggregations, totalsBesidePage } from '../../query/list-totals';
import { noteSortIndexUse } from '../../query/sort-indexes';
import { summaryContainsSql, summarySql } from '../../query/visible-summary';
import { limitLinkOf } from '../content-dossier/links';
import { presentItems } from '../content-dossier/present';
import { compileForUser, savedQueryOf } from '../dossier-query/service';
import { dossierWire } from './present';
import { fieldViewOf, ganttTaskLinkOf, viewFieldItems } from './view-fields';

export const FILTER_VIEWS = ['list', 'search', 'advanced-search'];

export interface ListOptions {
  /** how the background index sync builds indexes (CONCURRENTLY on PostgreSQL) */
  indexes?: FieldIndexOptions;
  /** a view's own narrowing (a kanban column, a calendar range), ANDed with the list's filters */
  condition?: RawBuilder<boolean>;
  /** the view whose items the answer carries (a calendar or kanban custom view), else 'list' */
  itemsView?: string;
  /** the call's sign-in read, carried by the page statement (auth/current-user.ts withSignInCarried) */
  signIn?: SignInCheck | null;
}

type Query = Record<string, unknown>;
/** The first value of a query parameter, trimmed. */
const firstText = (v: unknown) => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one.trim() : undefined;
};
/** An id in the query string (an `integer` column), or null. */
export const positiveId = (v: unknown): number | null => {
  const parsed = idParamSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};
/** A dossier id in the query string (a `bigint` column), or null. */
const dossierId = (v: unknown): number | null => {
  const parsed = dossierIdParamSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};

/** Membership of the entity's environment and 'show' on the entity, or 403/404. */
export async function openEntityForShow(
  db: Db,
  user: UserRow,
  defDossierId: number,
  environmentId?: number | null,
) {
  const scope = await openEntityScope(db, user, defDossierId, environmentId);
  authorize(canShowDossiers(scope));
  return scope;
}

/** The link and parent of the linked list mode, checked against the environment and permissions. */
async function embeddedScope(
  db: Db,
  access: EnvironmentAccess,
  defDossierId: number,
  query: Query,
): Promise<ListParams['embedded']> {
  if (query.embedded === undefined && query.linkId === undefined) return null;
  const parentId = dossierId(query.embedded);
  const linkId = positiveId(query.linkId);
  if (!parentId) throw badRequest({ embedded: 'Enter a valid dossier' });
  if (!linkId) throw badRequest({ linkId: 'Enter a valid link' });
  const link = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('id', '=', linkId)
    .where('environment_id', '=', access.environment.id)
    .where('child_def_dossier_id', '=', defDossierId)
    .executeTakeFirst();
  if (!link) throw badRequest({ linkId: 'Unknown link' });
  const parent = await db
    .selectFrom('content_dossier')
    .select(['id', 'def_dossier_id'])
    .where('id', '=', parentId)
    .where('environment_id', '=', access.environment.id)
    .where('def_dossier_id', '=', link.def_dossier_id)
    .executeTakeFirst();
  if (!parent) throw badRequest({ embedded: 'Unknown dossier' });
  authorize(canShowDossiers({ permissions: await entityPermissions(db, access, parent.def_dossier_id) }));
  return { parentId, link, limit: await limitLinkOf(db, access.environment.id, link) };
}

/**
 * The list call's parameters checked for this user: the entity opened for show, the visible items,
 * and the filters, sort and saved query compiled (400 naming each parameter that is wrong).
 */
async function openList(db: Db, user: UserRow, query: Query, options: ListOptions) {
  const defDossierId = positiveId(query.defDossier);
  if (!defDossierId) throw badRequest({ defDossier: 'This is a required field' });
  const environmentRaw = query.environment;
  const environmentId = environmentRaw === undefined ? null : positiveId(environmentRaw);
  if (environmentRaw !== undefined && !environmentId) throw badRequest({ environment: 'Enter a valid id' });
  const scope = await openEntityForShow(db, user, defDossierId, environmentId);
  const { access } = scope;
  const savedQueryId = firstText(query.dossierQuery);
  const saved = savedQueryId
    ? await savedQueryOf(db, access.environment.id, defDossierId, positiveId(savedQueryId) ?? 0)
    : null;
  ensureFieldIndexesOnce(db, defDossierId, options.indexes);

  const [visible, summaryKeys] = await Promise.all([
    visibleItems(db, access, defDossierId, FILTER_VIEWS),
    readerSummaryKeys(db, access),
  ]);
  const embedded = await embeddedScope(db, access, defDossierId, query);
  const { params, errors } = listParamsOf(query, {
    defDossierId,
    environmentId: access.environment.id,
    visible,
    embedded,
    summaryKeys,
    userId: user.id,
  });
  if (Object.keys(errors).length) throw badRequest(errors);
  if (saved) {
    // a saved query narrows the list's own filters (AND); its archived choice holds unless the list
    // names one itself
    const { condition } = await compileForUser(db, access, user, defDossierId, {
      ...saved.data,
      include_archived: query.archived === undefined ? saved.data.include_archived : 'both',
    });
    params.condition = params.condition ? sql<boolean>`(${params.condition} and ${condition})` : condition;
    if (query.archived === undefined) params.archived = 'both';
  }
  if (options.condition)
    params.condition = params.condition
      ? sql<boolean>`(${params.condition} and ${options.condition})`
      : options.condition;
  return { access, params, visible, entity: scope.entity, embedded };
}

/** The creators and last editors of page rows. */
const usersOf = (rows: PageRow[]) => rows.flatMap((row) => [row.created_by, row.modified_by]);

/** A page row in the wire shape (it carries the reader's summary already: no key to apply). */
const pageRowWire = (row: PageRow, nameOf: (id: number | null) => string | null) =>
  dossierWire(row, { created_by: nameOf(row.created_by), modified_by: nameOf(row.modified_by) }, undefined);

export async function listDossiers(
  db: Db,
  user: UserRow,
  query: Query,
  options: ListOptions = {},
): Promise<DossierListBody> {
  const { access, params, visible, entity, embedded } = await openList(db, user, query, options);
  const shownItems =
    options.itemsView && options.itemsView !== 'list'
      ? await visibleItems(db, access, params.defDossierId, [options.itemsView])
      : visible.filter((v) => v.item.view === 'list');
  // a timeline or gantt reads its configured fields too (view-fields.ts)
  const fieldView = fieldViewOf(query.view);
  const listItems = fieldView
    ? [
        ...shownItems,
        ...(await viewFieldItems(
          db,
          access,
          { id: entity.id, settings: entity.settings as Record<string, unknown> },
          embedded,
          fieldView,
          shownItems,
        )),
      ]
    : shownItems;
  const dataVersionOf = await entityAndLinkedIds(db, access, params.defDossierId);
  const totals = totalsBesidePage(db, params, dataVersionOf);
  const [{ rows, dataVersion, countedTotal }, items] = await Promise.all([
    // a list of the whole entity without aggregations: its total comes with the page
    pageWithRelations(db, params, pageLinks(listItems), dataVersionOf, options.signIn, {
      withCountedTotal: params.aggregations.length === 0,
    }),
    presentItems(db, access, listItems),
  ]);
  const [{ count, aggregations }, nameOf] = await Promise.all([
    totals.at(dataVersion, countedTotal),
    usernamesOf(db, usersOf(rows)),
  ]);
  noteSortIndexUse(db, params, count.items, options.indexes);
  return {
    results: {
      dossiers: rows.map((row) => pageRowWire(row, nameOf)),
      contents: contentsOf(listItems, rows),
      items,
      aggregations: await withVisibleOptions(db, access, visible, aggregations),
      ...(fieldView === 'gantt'
        ? {
            gantt: await ganttTaskLinkOf(
              db,
              access,
              { id: entity.id, settings: entity.settings as Record<string, unknown> },
              embedded,
            ),
          }
        : {}),
    },
    pager: count.estimated
      ? { ...makePager(params.page, params.limit, count.items), estimated: true }
      : makePager(params.page, params.limit, count.items),
  };
}

/** One column of a board: its option and the page of the dossiers that hold it. */
export interface BoardColumns {
  /** the list field's item whose options the columns are */
  item: VisibleItem;
  /** the options, in column order */
  optionIds: number[];
  /** a dossier holds an option (`option` is its id as SQL) */
  inColumn: (option: RawBuilder<number>) => RawBuilder<boolean>;
}

/**
 * The first page of every column of a board (a kanban), each as the list call answers one column's
 * page: the list call's checks and parameters (filters, embedded mode, sort, page size), the pages of
 * all columns in one statement, and their totals from one grouped count over the set (cached under
 * the data version, or read from the option counters when the set is a whole entity).
 */
export async function listColumnPages(
  db: Db,
  user: UserRow,
  query: Query,
  columns: BoardColumns,
  options: ListOptions = {},
): Promise<Record<string, DossierListBody>> {
  const { access, params, visible } = await openList(db, user, query, options);
  const listItems =
    options.itemsView && options.itemsView !== 'list'
      ? await visibleItems(db, access, params.defDossierId, [options.itemsView])
      : visible.filter((v) => v.item.view === 'list');
  const counted = columnOf(columns.item, params.summaryKeys.get(params.defDossierId));
  if (counted?.kind !== 'field') throw new Error('a board is grouped by a list field');
  const dataVersionOf = await entityAndLinkedIds(db, access, params.defDossierId);
  const [{ rows, dataVersion }, items] = await Promise.all([
    columnPagesWithRelations(
      db,
      params,
      pageLinks(listItems),
      dataVersionOf,
      columns.optionIds,
      columns.inColumn,
    ),
    presentItems(db, access, listItems),
  ]);
  // the totals: how many hold each option, the count the list's option aggregation makes
  const [{ aggregations }, nameOf] = await Promise.all([
    countAndAggregations(
      db,
      { ...params, aggregations: [{ column: counted, aggregate: 'count', param: 'board' }] },
      dataVersion,
    ),
    usernamesOf(db, usersOf(rows)),
  ]);
  const totals = new Map((aggregations[0]?.options ?? []).map((o) => [o.id, o.total]));
  const pages: Record<string, DossierListBody> = {};
  for (const optionId of columns.optionIds) {
    const own = rows.filter((row) => Number(row.board_column) === optionId);
    pages[String(optionId)] = {
      results: {
        dossiers: own.map((row) => pageRowWire(row, nameOf)),
        contents: contentsOf(listItems, own),
        items,
        aggregations: [],
      },
      pager: makePager(params.page, params.limit, totals.get(optionId) ?? 0),
    };
  }
  return pages;
}

/**
 * The list's filtered set in its order (no page, nothing selected yet), for an export of the whole
 * list: one statement, where paging through it would read the skipped rows again for every page.
 */
export async function orderedListQuery(db: Db, user: UserRow, query: Query) {
  const { params } = await openList(db, user, query, {});
  // wrapped: a promise cannot resolve to a query builder (Kysely refuses to be awaited)
  return {
    ordered: orderedQuery(db, params),
    /** the exact size of the set, by a statement of its own (beside the ordered one, not in it) */
    count: async () => Number((await countQuery(db, params).executeTakeFirstOrThrow()).count),
  };
}

/**
 * The per-option counts of list aggregations without the options the user's roles may not see (the
 * cached figures are the same for everyone).
 */
async function withVisibleOptions(
  db: Db,
  access: EnvironmentAccess,
  visible: VisibleItem[],
  aggregations: AggregationResult[],
): Promise<AggregationResult[]> {
  if (!aggregations.some((a) => a.options)) return aggregations;
  const optionFields = visible.flatMap((v) =>
    v.field && valueRefsOf(v.field.type) === 'options' ? [v.field.id] : [],
  );
  const shown = new Set((await visibleListOptions(db, access, optionFields)).map((o) => o.id));
  return aggregations.map((a) =>
    a.options ? { ...a, options: a.options.filter((o) => shown.has(o.id)) } : a,
  );
}

/** The link ids whose linked dossiers the page must carry for these list items (both directions). */
function pageLinks(items: VisibleItem[]): PageLinks {
  const links = items.flatMap((v) => (v.link ? [v.link] : []));
  return {
    forward: [...new Set(links.map((l) => l.id))],
    backward: [...new Set(links.flatMap((l) => (l.back_link_id ? [l.back_link_id] : [])))],
  };
}

/** The value of one of the row's own columns, as the detail page shows it (dates as ISO text). */
function dossierData(row: PageRow, data: unknown): ItemValue {
  if ((DOSSIER_COLUMNS as readonly unknown[]).includes(data))
    return dossierColumnValue(row, data as DossierColumn);
  if (data === 'summary') return row.summary;
  if (data === 'dossier_id') return row.id;
  return undefined;
}

/**
 * Per dossier: list item id -> value (field value, linked dossiers or dossier data; every summary on
 * a page row is the reader's already). System fields read the dossier's own columns, as their list
 * column sorts and filters on them.
 */
function contentsOf(items: VisibleItem[], rows: PageRow[]): Record<string, Record<string, ItemValue>> {
  // each item's key and reader, worked out once per page rather than once per row
  const readers = items.map((v) => [String(v.item.id), itemValueReader(v)] as const);
  const contents: Record<string, Record<string, ItemValue>> = {};
  for (const row of rows) {
    const content: Record<string, ItemValue> = {};
    contents[String(row.id)] = content;
    const values = (row.values ?? {}) as Record<string, unknown>;
    for (const [key, read] of readers) {
      const value = read(row, values);
      if (value !== undefined) content[key] = value;
    }
  }
  return contents;
}

/** How a list item's value is read off a page row (undefined: the item shows nothing). */
function itemValueReader(
  v: VisibleItem,
): (row: PageRow, values: Record<string, unknown>) => ItemValue | undefined {
  const { link } = v;
  if (link) return (row) => linkedThrough(link, row.linked);
  const source = valueSourceOf(v);
  if (source?.from === 'column') {
    const { column } = source;
    return (row) => dossierData(row, column);
  }
  if (v.dataField) {
    const fieldKey = String(v.dataField.id);
    return (_row, values) => (values[fieldKey] ?? null) as ItemValue;
  }
  const data = v.item.settings?.dossier_data;
  return (row) => dossierData(row, data);
}

/** Where a field item's value lives (core: the type's source with the item's settings). */
function valueSourceOf(v: VisibleItem): ValueSource | null {
  const type = fieldTypeOf(v);
  return type && isFieldTypeName(type) ? getFieldType(type).source(fieldSettingsOf(v)) : null;
}

/** The dossiers linked to a row through `link`, read in both directions, each once, in rank order. */
function linkedThrough(link: LinkRow, linked: PageLinkedDossier[]): LinkedDossier[] {
  const result: LinkedDossier[] = [];
  for (const d of linked) {
    const through = d.forward ? d.link_id === link.id : d.link_id === link.back_link_id;
    if (!through || result.some((r) => r.id === Number(d.id))) continue;
    result.push({
      id: Number(d.id),
      summary: d.summary,
      def_dossier_id: d.def_dossier_id,
      archived: d.archived,
    });
  }
  return result;
}

/**
 * A short text (up to 4 letters) is in many summaries: fetching every match the trigram index finds
 * (about 1,500 rows, each on a page of its own, for three letters on a million dossiers) took 10 to 70
 * ms. The newest matches are found sooner among the newest dossiers, read in id order: when the newest
 * 20,000 hold `limit` matches, those are the answer (3-10 ms); otherwise the index search runs.
 */
const SHORT_SEARCH = 4;
const NEWEST_SCANNED = 20_000;

async function amongNewest(
  db: Db,
  environmentId: number,
  entities: readonly number[] | SelectQueryBuilder<Database, 'def_dossier', { id: number }>,
  text: string,
  limit: number,
): Promise<QuickSearchRow[] | null> {
  const newest = db
    .selectFrom('content_dossier')
    .select(['id', 'summary', 'def_dossier_id', 'created_at'])
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', 'in', entities)
    .where('archived', '=', false)
    .orderBy('id', 'desc')
    .limit(NEWEST_SCANNED);
  const rows = await db
    .selectFrom(newest.as('n'))
    .selectAll()
    .where(sql<boolean>`n.summary ilike ${likeContains(text)}`)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.length === limit ? rows : null;
}

interface QuickSearchRow {
  id: number;
  summary: string;
  def_dossier_id: number;
  created_at: Date;
}

/** Quick search over the summaries of the entities the user may show (GET /api/contentdossier/search). */
export async function quickSearch(
  db: Db,
  user: UserRow,
  environmentId: number,
  search: string,
  limit: number,
): Promise<QuickSearchHit[]> {
  const access = await openEnvironment(db, user, environmentId);
  authorize(canQuickSearch(access));
  const text = search.trim();
  if (text === '') return [];
  const summaryKeys = await readerSummaryKeys(db, access);
  let entities = db.selectFrom('def_dossier').select('id').where('environment_id', '=', environmentId);
  let shownIds: number[] = [];
  if (!isEnvironmentAdmin(access)) {
    shownIds = [...(await entitiesShownToRoles(db, [environmentId], access.membership?.role_ids ?? []))];
    if (shownIds.length === 0) return [];
    entities = entities.where('id', 'in', shownIds);
  }
  const searchIn = (entityIds: number[] | typeof entities, key?: string) =>
    db
      .selectFrom('content_dossier')
      .select(['id', summarySql('content_dossier', key).as('summary'), 'def_dossier_id', 'created_at'])
      .where('environment_id', '=', environmentId)
      .where('def_dossier_id', 'in', entityIds)
      .where('archived', '=', false)
      .where(summaryContainsSql('content_dossier', key, text))
      .orderBy('id', 'desc')
      .limit(limit);
  // Only members have summary keys (policy/summary.ts), and their entities are known here. A reader
  // with keys gets one search per group of entities whose summaries they read alike, each planned on
  // its own with its entity ids: joined by OR, or with the entities as a subquery, the planner could
  // not tell that the matches were of other entities and read the whole table newest first (2-11 s on
  // a million dossiers).
  const keyed = [...summaryKeys].filter(([entityId]) => shownIds.includes(entityId));
  const plainIds = shownIds.filter((id) => !summaryKeys.has(id));
  const searches = keyed.length
    ? [
        ...(plainIds.length ? [searchIn(plainIds)] : []),
        ...keyed.map(([entityId, key]) => searchIn([entityId], key)),
      ]
    : [searchIn(entities)];
  const rows: QuickSearchRow[] =
    searches.length === 1
      ? ((keyed.length === 0 && text.length <= SHORT_SEARCH
          ? await amongNewest(db, environmentId, entities, text, limit)
          : null) ?? (await searches[0].execute()))
      : (
          await sql<QuickSearchRow>`select * from (${sql.join(
            searches.map((one, i) => sql`select * from (${one}) as ${sql.id(`s${i}`)}`),
            sql` union all `,
          )}) as hits order by id desc limit ${limit}`.execute(db)
        ).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    summary: r.summary,
    def_dossier_id: r.def_dossier_id,
    created_at: r.created_at.toISOString(),
  }));
}
