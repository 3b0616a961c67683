import {
  type AggregationResult,
  type DossierListBody,
  type ItemValue,
  type LinkedDossier,
  makePager,
  type QuickSearchHit,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest, forbidden } from '../../http-errors';
import { type LinkRow, type VisibleItem, visibleItems, visibleListOptions } from '../../policy/display-item';
import { entityPermissions, openEntityScope } from '../../policy/entity';
import { type EnvironmentAccess, isEnvironmentAdmin, openEnvironment } from '../../policy/environment';
import { ensureFieldIndexesOnce, type FieldIndexOptions } from '../../query/field-indexes';
import { cachedResult, entityDataVersion, queryKey } from '../../query/list-cache';
import { listTotal } from '../../query/list-count';
import {
  type Column,
  columnOf,
  countQuery,
  type ListParams,
  likeContains,
  pageQuery,
  parseListParams,
  runAggregations,
} from '../../query/list-query';
import { presentItems } from '../content-dossier/present';
import { presentDossiers } from './present';

export const FILTER_VIEWS = ['list', 'search', 'advanced-search'];

export interface ListOptions {
  /** how the background index sync builds indexes (CONCURRENTLY on PostgreSQL) */
  indexes?: FieldIndexOptions;
}

type Query = Record<string, unknown>;
const firstText = (v: unknown) => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one.trim() : undefined;
};
const positiveId = (v: unknown): number | null => {
  const text = firstText(v);
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** Membership of the entity's environment and 'show' on the entity, or 403/404. */
export async function openEntityForShow(
  db: Db,
  user: UserRow,
  defDossierId: number,
  environmentId?: number | null,
) {
  const scope = await openEntityScope(db, user, defDossierId, environmentId);
  if (!scope.permissions.has('show')) throw forbidden();
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
  const parentId = positiveId(query.embedded);
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
  if (!(await entityPermissions(db, access, parent.def_dossier_id)).has('show')) throw forbidden();
  return { parentId, link };
}

export async function listDossiers(
  db: Db,
  user: UserRow,
  query: Query,
  options: ListOptions = {},
): Promise<DossierListBody> {
  const defDossierId = positiveId(query.defDossier);
  if (!defDossierId) throw badRequest({ defDossier: 'This is a required field' });
  const environmentRaw = query.environment;
  const environmentId = environmentRaw === undefined ? null : positiveId(environmentRaw);
  if (environmentRaw !== undefined && !environmentId) throw badRequest({ environment: 'Enter a valid id' });
  const { access } = await openEntityForShow(db, user, defDossierId, environmentId);
  // Saved queries (the query builder) do not exist yet, so no id can name one: refused, not ignored.
  if (firstText(query.dossierQuery)) throw badRequest({ dossierQuery: 'Unknown query' });
  ensureFieldIndexesOnce(db, defDossierId, options.indexes);

  const visible = await visibleItems(db, access, defDossierId, FILTER_VIEWS);
  const columns = new Map<number, Column>();
  for (const v of visible) {
    const column = columnOf(v);
    if (column && column.itemId !== null) columns.set(v.item.id, column);
  }
  const embedded = await embeddedScope(db, access, defDossierId, query);
  const { params, errors } = parseListParams(query, {
    defDossierId,
    environmentId: access.environment.id,
    filterable: columns,
    embedded,
  });
  if (Object.keys(errors).length) throw badRequest(errors);

  const listItems = visible.filter((v) => v.item.view === 'list');
  const [rows, { count, aggregations }] = await Promise.all([
    pageQuery(db, params).execute(),
    countAndAggregations(db, params),
  ]);
  const [dossiers, contents, items] = await Promise.all([
    presentDossiers(db, rows),
    contentsOf(db, access, listItems, rows),
    presentItems(db, access, listItems),
  ]);
  return {
    results: {
      dossiers,
      contents,
      items,
      aggregations: await withVisibleOptions(db, access, visible, aggregations),
    },
    pager: count.estimated
      ? { ...makePager(params.page, params.limit, count.items), estimated: true }
      : makePager(params.page, params.limit, count.items),
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
    v.field && (v.field.type === 'list' || v.field.type === 'tree') ? [v.field.id] : [],
  );
  const shown = new Set((await visibleListOptions(db, access, optionFields)).map((o) => o.id));
  return aggregations.map((a) =>
    a.options ? { ...a, options: a.options.filter((o) => shown.has(o.id)) } : a,
  );
}

/** The total and the aggregations of the filtered set, cached under the entity's data version. */
async function countAndAggregations(db: Db, params: ListParams) {
  const version = await entityDataVersion(db, params.defDossierId);
  const filtered = queryKey(countQuery(db, params).compile());
  const count = listTotal(db, params, `count:${version}:${filtered}`);
  const aggregated = params.aggregations.map(({ column, aggregate }) =>
    column.kind === 'link'
      ? [column.itemId, aggregate, 'link', column.link.id]
      : [column.itemId, aggregate, column.expression],
  );
  const aggregations = params.aggregations.length
    ? cachedResult(`aggregations:${version}:${filtered}:${JSON.stringify(aggregated)}`, () =>
        runAggregations(db, params),
      )
    : Promise.resolve([]);
  return { count: await count, aggregations: await aggregations };
}

type DossierRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>[number];

/** Per dossier: list item id -> value (field value, linked dossiers or dossier data). */
async function contentsOf(
  db: Db,
  access: EnvironmentAccess,
  items: VisibleItem[],
  rows: DossierRow[],
): Promise<Record<string, Record<string, ItemValue>>> {
  const contents: Record<string, Record<string, ItemValue>> = {};
  for (const row of rows) contents[String(row.id)] = {};
  if (rows.length === 0) return contents;
  const ids = rows.map((r) => r.id);
  const linkItems = items.filter((v) => v.link);
  const linked = linkItems.length
    ? await linkedDossiers(
        db,
        access,
        linkItems.map((v) => v.link as LinkRow),
        ids,
      )
    : new Map<string, LinkedDossier[]>();
  for (const row of rows) {
    const content = contents[String(row.id)];
    const values = (row.values ?? {}) as Record<string, unknown>;
    for (const v of items) {
      const key = String(v.item.id);
      if (v.dataField) content[key] = values[String(v.dataField.id)] ?? null;
      else if (v.link) content[key] = linked.get(`${v.link.id}:${row.id}`) ?? [];
      else {
        const data = v.item.settings?.dossier_data;
        if (data === 'created_at' || data === 'modified_at') content[key] = row[data].toISOString();
        else if (data === 'summary') content[key] = row.summary;
        else if (data === 'dossier_id') content[key] = row.id;
        else if (data === 'created_by' || data === 'modified_by') content[key] = row[data];
      }
    }
  }
  return contents;
}

/** `${linkId}:${dossierId}` -> the dossiers linked through that link, in both directions. */
async function linkedDossiers(
  db: Db,
  access: EnvironmentAccess,
  links: LinkRow[],
  dossierIds: number[],
): Promise<Map<string, LinkedDossier[]>> {
  const forwardIds = [...new Set(links.map((l) => l.id))];
  const backToForward = new Map<number, number>();
  for (const l of links) if (l.back_link_id) backToForward.set(l.back_link_id, l.id);
  const backIds = [...backToForward.keys()];
  const { rows } = await sql<{
    link_id: number;
    owner: number;
    id: number;
    summary: string;
    def_dossier_id: number;
    archived: boolean;
    forward: boolean;
  }>`
    select cl.link_id, cl.parent_id as owner, d.id, d.summary, d.def_dossier_id, d.archived, true as forward, cl.rank, cl.id as cl_id
    from content_link cl join content_dossier d on d.id = cl.child_id
    where cl.environment_id = ${access.environment.id} and cl.link_id in (${sql.join(forwardIds)})
      and cl.parent_id in (${sql.join(dossierIds)})
    ${
      backIds.length
        ? sql`union all
    select cl.link_id, cl.child_id as owner, d.id, d.summary, d.def_dossier_id, d.archived, false, cl.rank, cl.id
    from content_link cl join content_dossier d on d.id = cl.parent_id
    where cl.environment_id = ${access.environment.id} and cl.link_id in (${sql.join(backIds)})
      and cl.child_id in (${sql.join(dossierIds)})`
        : sql``
    }
    order by rank, cl_id`.execute(db);
  const result = new Map<string, LinkedDossier[]>();
  for (const r of rows) {
    const linkId = r.forward ? r.link_id : backToForward.get(r.link_id);
    if (linkId === undefined) continue;
    const key = `${linkId}:${Number(r.owner)}`;
    const list = result.get(key) ?? [];
    if (list.some((d) => d.id === Number(r.id))) continue;
    list.push({
      id: Number(r.id),
      summary: r.summary,
      def_dossier_id: r.def_dossier_id,
      archived: r.archived,
    });
    result.set(key, list);
  }
  return result;
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
  const text = search.trim();
  if (text === '') return [];
  let entities = db.selectFrom('def_dossier').select('id').where('environment_id', '=', environmentId);
  if (!isEnvironmentAdmin(access)) {
    const roleIds = access.membership?.role_ids ?? [];
    if (roleIds.length === 0) return [];
    const shown = await db
      .selectFrom('permission')
      .select('def_dossier_id')
      .where('environment_id', '=', environmentId)
      .where('role_id', 'in', roleIds)
      .where(sql<boolean>`'show' = any(actions)`)
      .execute();
    const ids = [...new Set(shown.map((r) => r.def_dossier_id))];
    if (ids.length === 0) return [];
    entities = entities.where('id', 'in', ids);
  }
  const rows = await db
    .selectFrom('content_dossier')
    .select(['id', 'summary', 'def_dossier_id', 'created_at'])
    .where('environment_id', '=', environmentId)
    .where('def_dossier_id', 'in', entities)
    .where('archived', '=', false)
    .where(sql<boolean>`summary ilike ${likeContains(text)}`)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    summary: r.summary,
    def_dossier_id: r.def_dossier_id,
    created_at: r.created_at.toISOString(),
  }));
}
