import { DATE_FORMATS, type SqlCast, STATISTIC_PERIODS, valueRefsOf } from '@dossierbase/core';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../http-errors';
import { visibleListOptions } from '../../policy/display-item';
import { authorize, canShowDossiers } from '../../policy/dossier';
import { entityPermissions } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';
import type { Column } from '../../query/compile/columns';
import { archivedSql } from '../../query/compile/document';
import { linkedToDossier } from '../../query/compile/links';
import { countedTotal } from '../../query/dossier-counts';
import { valueExpression } from '../../query/field-expression';
import { roomsOf } from '../../realtime/rooms';
import { openDossier } from '../content-dossier/read-model';
import { listDossiers } from '../content-dossier-list/service';
import { compileForUser, entityScope, savedQueryOf } from '../dossier-query/service';
import { type BlockRow, blockShownTo, customViewOf, listBlockView } from './blocks';
import { rolledUpCounts, rolledUpOptionCounts, rolledUpPeriods, rolledUpSum } from './rollups';
import { activeUsers, newDossierStatistics, onlineUsers } from './statistics';

// The data of each block type, computed on the server from the dossiers the user may see: the block's
// entity (show permission), its saved query compiled for this user, and only fields the user may see
// (a block grouped or summed by a hidden field is not answered).

export const BLOCK_DATA_MESSAGES = {
  hiddenField: 'This block reads a field you may not see',
  notSupported: 'Not supported settings',
  unknownTab: "Not one of the block's tabs",
} as const;

interface Context {
  db: Db;
  access: EnvironmentAccess;
  user: UserRow;
  block: BlockRow;
  params: { dossier?: string; linkId?: number; date_format?: string; query?: number };
}

/** The block's filtered set: its entity, its query (or not archived), and the dossier context. */
async function filteredSet(ctx: Context) {
  const { db, access, user, block, params } = ctx;
  // a funnel may name only its list field: the entity is that field's
  const entityId =
    block.def_dossier_id ??
    (block.type === 'funnel' && Number.isSafeInteger(Number(block.settings.list_field))
      ? ((
          await db
            .selectFrom('def_dossier_def_field')
            .select('def_dossier_id')
            .where('id', '=', Number(block.settings.list_field))
            .where('environment_id', '=', access.environment.id)
            .executeTakeFirst()
        )?.def_dossier_id ?? null)
      : null);
  if (!entityId) throw badRequest({ defDossier: 'This is a required field' });
  authorize(canShowDossiers({ permissions: await entityPermissions(db, access, entityId) }));
  const scope = await entityScope(db, access, entityId);
  let condition: RawBuilder<boolean> = archivedSql('content_dossier', 'none_archived');
  // the entity's not archived dossiers, no more conditions: what the rollups (rollups.ts) count
  let whole = true;
  if (block.dossier_query_id) {
    const query = await db
      .selectFrom('dossier_query')
      .selectAll()
      .where('id', '=', block.dossier_query_id)
      .where('environment_id', '=', access.environment.id)
      .executeTakeFirst();
    if (query) {
      ({ condition } = await compileForUser(db, access, user, entityId, query.data));
      whole = false;
    }
  }
  // block_link: the block about one dossier shows the dossiers linked to it through the link
  if (params.dossier && params.linkId) {
    // the dossier was opened and checked to be of the block's environment (blockData)
    const link = await db
      .selectFrom('def_dossier_link')
      .selectAll()
      .where('id', '=', params.linkId)
      .where('environment_id', '=', access.environment.id)
      .executeTakeFirst();
    if (!link) throw badRequest({ linkId: 'Unknown link' });
    // the link read both ways: the block's entity may be either side of it
    const linked = linkedToDossier(access.environment.id, Number(params.dossier), link.id, link.id);
    condition = sql<boolean>`(${condition} and content_dossier.id in (${linked}))`;
    whole = false;
  }
  const from = () =>
    db
      .selectFrom('content_dossier')
      .where('content_dossier.environment_id', '=', access.environment.id)
      .where('content_dossier.def_dossier_id', '=', entityId)
      .where(condition);
  /** A field of the entity by its data-field id, only when the user may see it. */
  const field = (setting: unknown): Column & { kind: 'field' } => {
    const id = Number(setting);
    const column = scope.fields.get(id);
    if (column?.kind !== 'field') throw forbidden(BLOCK_DATA_MESSAGES.hiddenField);
    return column;
  };
  return { from, field, entityId, whole };
}

/** The block's rollup scope when its set is the whole entity's not archived dossiers, else null. */
const rollupScope = (ctx: Context, set: { whole: boolean; entityId: number }) =>
  set.whole ? { environmentId: ctx.access.environment.id, entityId: set.entityId } : null;

/**
 * Whether the block reads the field as stored, the expression the rollups count; any other (a changed
 * field type) is read by the SQL.
 */
const isStored = (column: Column & { kind: 'field' }, cast: SqlCast) =>
  column.expression === valueExpression(column.dataFieldId, cast);

const PERIOD_FORMATS: Record<string, string> = {
  year_month: 'YYYY-MM',
  quarter: 'YYYY-"Q"Q',
  year: 'YYYY',
  week: 'IYYY-"W"IW',
  month: 'YYYY-MM',
};

/** The period a dossier falls in: of a date field (stored ISO text), or of its creation (Amsterdam). */
function periodOf(column: (Column & { kind: 'field' }) | null, format: string): RawBuilder<string> {
  const pattern = PERIOD_FORMATS[format];
  if (!column)
    return sql<string>`to_char(content_dossier.created_at at time zone 'Europe/Amsterdam', ${pattern})`;
  const text = sql.raw(column.expression);
  return sql<string>`(case when ${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then to_char(cast(substr(${text}, 1, 10) as date), ${pattern}) end)`;
}

function dateFormatOf(ctx: Context): string {
  const asked = ctx.params.date_format ?? ctx.block.settings.date_format;
  return (DATE_FORMATS as readonly unknown[]).includes(asked) ? (asked as string) : 'year_month';
}

async function optionsOf(ctx: Context, column: Column & { kind: 'field' }) {
  if (valueRefsOf(column.type) !== 'options')
    throw badRequest({ count_list_field: BLOCK_DATA_MESSAGES.notSupported });
  const options = await visibleListOptions(ctx.db, ctx.access, [
    (
      await ctx.db
        .selectFrom('def_dossier_def_field')
        .select('def_field_id')
        .where('id', '=', column.dataFieldId)
        .executeTakeFirstOrThrow()
    ).def_field_id,
  ]);
  return options
    .sort((a, b) => a.rank - b.rank || a.id - b.id)
    .map((o) => ({ id: o.id, label: o.translations[0]?.text ?? `#${o.id}`, color: o.color }));
}

async function countListOptions(ctx: Context) {
  const set = await filteredSet(ctx);
  const list = set.field(ctx.block.settings.count_list_field);
  const options = await optionsOf(ctx, list);
  const dateColumn =
    ctx.block.settings.use_creation_date || !ctx.block.settings.date_field
      ? null
      : set.field(ctx.block.settings.date_field);
  const format = dateFormatOf(ctx);
  const period = periodOf(dateColumn, format);
  const option = sql.raw(`(${list.expression} #>> '{}')`);
  const scope = rollupScope(ctx, set);
  const rolledUp =
    scope && isStored(list, 'jsonb') && (!dateColumn || isStored(dateColumn, 'text'))
      ? await rolledUpCounts(
          ctx.db,
          {
            ...scope,
            kind: 'count',
            fieldId: list.dataFieldId,
            dateFieldId: dateColumn?.dataFieldId ?? null,
          },
          format as (typeof DATE_FORMATS)[number],
        )
      : null;
  const rows =
    rolledUp ??
    (await set
      .from()
      .select([period.as('period'), option.as('option'), sql<string>`count(*)`.as('count')])
      .groupBy([sql`1`, sql`2`])
      .orderBy(sql`1`)
      .execute());
  const shown = new Set(options.map((o) => String(o.id)));
  return {
    options,
    rows: rows
      .filter((r) => r.option === null || shown.has(String(r.option)))
      .map((r) => ({
        period: r.period,
        option: r.option === null ? null : Number(r.option),
        count: Number(r.count),
      })),
  };
}

async function countLinkOptions(ctx: Context) {
  const set = await filteredSet(ctx);
  const link = await ctx.db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('id', '=', Number(ctx.block.settings.count_link_field))
    .where('environment_id', '=', ctx.access.environment.id)
    .where('def_dossier_id', '=', set.entityId)
    .executeTakeFirst();
  if (!link) throw badRequest({ count_link_field: BLOCK_DATA_MESSAGES.notSupported });
  authorize(
    canShowDossiers({ permissions: await entityPermissions(ctx.db, ctx.access, link.child_def_dossier_id) }),
  );
  const dateColumn =
    ctx.block.settings.use_creation_date || !ctx.block.settings.date_field
      ? null
      : set.field(ctx.block.settings.date_field);
  const period = periodOf(dateColumn, dateFormatOf(ctx));
  const rows = await set
    .from()
    .innerJoin('content_link as cl', (join) =>
      join
        .onRef('cl.parent_id', '=', 'content_dossier.id')
        .onRef('cl.environment_id', '=', 'content_dossier.environment_id')
        .on('cl.link_id', '=', link.id),
    )
    .innerJoin('content_dossier as linked', (join) =>
      join.onRef('linked.id', '=', 'cl.child_id').onRef('linked.environment_id', '=', 'cl.environment_id'),
    )
    .select([
      period.as('period'),
      'linked.id as dossier',
      'linked.summary as summary',
      sql<string>`count(*)`.as('count'),
    ])
    .groupBy([sql`1`, 'linked.id', 'linked.summary'])
    .orderBy(sql`1`)
    .orderBy(sql`4`, 'desc')
    .limit(500)
    .execute();
  return {
    rows: rows.map((r) => ({
      period: r.period,
      dossier: Number(r.dossier),
      summary: r.summary,
      count: Number(r.count),
    })),
  };
}

async function sumFields(ctx: Context) {
  const set = await filteredSet(ctx);
  const column = set.field(ctx.block.settings.sum_field);
  if (column.cast !== 'numeric' && column.cast !== 'bigint')
    throw badRequest({ sum_field: BLOCK_DATA_MESSAGES.notSupported });
  const scope = rollupScope(ctx, set);
  const rolledUp =
    scope && isStored(column, 'numeric')
      ? await rolledUpSum(ctx.db, {
          ...scope,
          kind: 'sum',
          fieldId: column.dataFieldId,
          dateFieldId: null,
        })
      : null;
  const row =
    rolledUp ??
    (await set
      .from()
      .select([
        sql<string | null>`sum(${sql.raw(column.expression)})`.as('sum'),
        sql<string>`count(*)`.as('count'),
      ])
      .executeTakeFirstOrThrow());
  return { sum: row.sum === null ? 0 : Number(row.sum), count: Number(row.count) };
}

async function percentageConditions(ctx: Context) {
  const set = await filteredSet(ctx);
  const charts = Array.isArray(ctx.block.settings.pie_charts)
    ? ctx.block.settings.pie_charts.slice(0, 20)
    : [];
  const scope = rollupScope(ctx, set);
  const count = async (queryId: unknown) => {
    // the whole entity's not archived dossiers: the counter its writes keep (migration 2026-11-25T1600)
    if (!queryId && scope)
      return countedTotal(ctx.db, {
        environmentId: scope.environmentId,
        defDossierId: scope.entityId,
        archived: 'none',
      });
    let q = set.from();
    if (queryId) {
      const id = Number(queryId);
      const query = await savedQueryOf(
        ctx.db,
        ctx.access.environment.id,
        set.entityId,
        Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : 0,
        'pie_charts',
      );
      const { condition } = await compileForUser(ctx.db, ctx.access, ctx.user, set.entityId, query.data);
      q = q.where(condition);
    }
    return Number((await q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  };
  // charts often share a query (the total of all of them): each is counted once
  const counted = new Map<string, Promise<number>>();
  const countOf = (queryId: unknown) => {
    const key = String(queryId || '');
    const known = counted.get(key) ?? count(queryId);
    counted.set(key, known);
    return known;
  };
  const results = [];
  for (const chart of charts as Record<string, unknown>[]) {
    const [total, part] = await Promise.all([countOf(chart.total_query), countOf(chart.dossier_query)]);
    results.push({
      title: typeof chart.title === 'string' ? chart.title : '',
      color: typeof chart.color === 'string' ? chart.color : null,
      total,
      part,
      percentage: total === 0 ? 0 : Math.round((1000 * part) / total) / 10,
    });
  }
  return { charts: results };
}

async function funnel(ctx: Context) {
  const set = await filteredSet(ctx);
  const list = set.field(ctx.block.settings.list_field);
  const options = await optionsOf(ctx, list);
  const option = sql.raw(`(${list.expression} #>> '{}')`);
  // the count rollup by creation month, summed over the months (its period is never '!')
  const scope = rollupScope(ctx, set);
  const rolledUp =
    scope && isStored(list, 'jsonb')
      ? await rolledUpOptionCounts(ctx.db, {
          ...scope,
          kind: 'count',
          fieldId: list.dataFieldId,
          dateFieldId: null,
        })
      : null;
  const counts =
    rolledUp ??
    new Map(
      (
        await set
          .from()
          .select([option.as('option'), sql<string>`count(*)`.as('count')])
          .groupBy(sql`1`)
          .execute()
      ).map((c) => [c.option, Number(c.count)]),
    );
  return { steps: options.map((o) => ({ ...o, count: counts.get(String(o.id)) ?? 0 })) };
}

async function dateStatistics(ctx: Context) {
  const set = await filteredSet(ctx);
  const period = (STATISTIC_PERIODS as readonly unknown[]).includes(ctx.block.settings.period)
    ? (ctx.block.settings.period as string)
    : 'month';
  const dateColumn = ctx.block.settings.date_field ? set.field(ctx.block.settings.date_field) : null;
  // the last 24 periods, oldest first, no date last: what the SQL's `order by 1 desc limit 24` holds
  const scope = rollupScope(ctx, set);
  const rolledUp =
    scope && (!dateColumn || isStored(dateColumn, 'text'))
      ? await rolledUpPeriods(
          ctx.db,
          {
            ...scope,
            kind: 'day',
            fieldId: null,
            dateFieldId: dateColumn?.dataFieldId ?? null,
          },
          PERIOD_FORMATS[period],
        )
      : null;
  if (rolledUp) return { rows: rolledUp.slice(-24) };
  const rows = await set
    .from()
    .select([periodOf(dateColumn, period).as('period'), sql<string>`count(*)`.as('count')])
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .limit(24)
    .execute();
  return { rows: rows.reverse().map((r) => ({ period: r.period, count: Number(r.count) })) };
}

async function dashboardList(ctx: Context) {
  const { block } = ctx;
  const limit = Math.min(Math.max(Number(block.settings.limit) || 10, 1), 100);
  const sort = Array.isArray(block.settings.sort)
    ? (block.settings.sort as { dddfId?: unknown; sort?: unknown }[])
    : [];
  // a tab of tab_queries reads its own saved query instead of the block's; no other query is asked
  const tabs = Array.isArray(block.settings.tab_queries)
    ? (block.settings.tab_queries as { query?: unknown }[]).map((tab) => Number(tab?.query))
    : [];
  if (ctx.params.query !== undefined && !tabs.includes(ctx.params.query))
    throw badRequest({ query: BLOCK_DATA_MESSAGES.unknownTab });
  const savedQuery = ctx.params.query ?? block.dossier_query_id;
  const query: Record<string, unknown> = {
    defDossier: String(block.def_dossier_id),
    environment: String(ctx.access.environment.id),
    limit: String(limit),
    ...(savedQuery ? { dossierQuery: String(savedQuery) } : {}),
    'sort[]': sort.map((s) => String(s.dddfId)),
    'sortOrder[]': sort.map((s) => (s.sort === 'DESC' ? 'DESC' : 'ASC')),
  };
  if (ctx.params.dossier && ctx.params.linkId)
    Object.assign(query, { embedded: ctx.params.dossier, linkId: String(ctx.params.linkId) });
  // the columns and card fields are the items of the block's view: the list, or a custom view
  const view = listBlockView(block.settings);
  if (view !== 'list' && !(await customViewOf(ctx.db, ctx.access.environment.id, block.def_dossier_id, view)))
    throw badRequest({ view_name: BLOCK_DATA_MESSAGES.notSupported });
  return { list: await listDossiers(ctx.db, ctx.user, query, { itemsView: view }) };
}

async function geomap(ctx: Context) {
  const set = await filteredSet(ctx);
  const geo = [...(await entityScope(ctx.db, ctx.access, set.entityId)).fields.values()].find(
    (c): c is Column & { kind: 'field' } => c.kind === 'field' && c.type === 'geolocation',
  );
  const markers = geo
    ? await set
        .from()
        .select([
          'content_dossier.id',
          'content_dossier.summary',
          sql<string | null>`(${sql.raw(geo.expression)} ->> 'lat')`.as('lat'),
          sql<string | null>`(${sql.raw(geo.expression)} ->> 'lng')`.as('lng'),
        ])
        .where(sql<boolean>`${sql.raw(geo.expression)} ? 'lat'`)
        .orderBy('content_dossier.id', 'desc')
        .limit(500)
        .execute()
    : [];
  return {
    center: { lat: 52.3676, lng: 4.9041 },
    zoom: 10,
    markers: markers.flatMap((m) =>
      Number.isFinite(Number(m.lat)) && Number.isFinite(Number(m.lng))
        ? [{ id: Number(m.id), summary: m.summary, lat: Number(m.lat), lng: Number(m.lng) }]
        : [],
    ),
  };
}

async function container(ctx: Context) {
  const children = await ctx.db
    .selectFrom('mypage_block')
    .select(['id', 'roles'])
    .where('environment_id', '=', ctx.access.environment.id)
    .where('parent_id', '=', ctx.block.id)
    .orderBy('rank')
    .orderBy('id')
    .execute();
  return { children: children.filter((c) => blockShownTo(ctx.access, c)).map((c) => c.id) };
}

/**
 * The data of a block the user may see, by its type. With a dossier context (a block display item on
 * a dossier page) the dossier must be one the user may show, of the block's environment: a block of
 * another environment answers as an unknown one.
 */
export async function blockData(ctx: Context): Promise<Record<string, unknown>> {
  if (ctx.params.dossier !== undefined) {
    const { dossier } = await openDossier(ctx.db, ctx.user, Number(ctx.params.dossier), 'show');
    if (dossier.environment_id !== ctx.access.environment.id) throw notFound();
  }
  switch (ctx.block.type) {
    case 'dashboard':
      return dashboardList(ctx);
    case 'count_list_options':
      return countListOptions(ctx);
    case 'count_link_options':
      return countLinkOptions(ctx);
    case 'sum_fields':
      return sumFields(ctx);
    case 'list_option_percentage_conditions':
      return percentageConditions(ctx);
    case 'funnel':
      return funnel(ctx);
    case 'date_statistics':
      return dateStatistics(ctx);
    case 'geomap':
      return geomap(ctx);
    case 'block_container':
      return container(ctx);
    case 'online_users':
      return onlineUsers(ctx.db, ctx.access, roomsOf(ctx.db));
    case 'active_users':
      return { rows: await activeUsers(ctx.db, ctx.access.environment.id) };
    case 'new_dossier_statistics':
      return newDossierStatistics(ctx.db, ctx.access);
    default:
      throw badRequest({ type: BLOCK_DATA_MESSAGES.notSupported });
  }
}
