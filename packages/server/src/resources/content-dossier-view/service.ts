import {
  type CalendarAnswer,
  fieldSettingsOf,
  KANBAN_PAGE_SIZE,
  type KanbanBoardAnswer,
  valueRefsOf,
} from '@dossierbase/core';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest, forbidden } from '../../http-errors';
import { type VisibleItem, visibleItems, visibleListOptions } from '../../policy/display-item';
import { canEditDossiers } from '../../policy/dossier';
import type { EntityScope } from '../../policy/entity';
import { checkedId } from '../../query/field-expression';
import { likeContains } from '../../query/list-query';
import { EDIT_VIEWS } from '../content-dossier/items';
import type { DossierRow } from '../content-dossier/read-model';
import { updateDossier } from '../content-dossier/service';
import {
  type ListOptions,
  listColumnPages,
  listDossiers,
  openEntityForShow,
  positiveId,
} from '../content-dossier-list/service';
import { presentListOption } from '../def-field/present';

// The view lists of a dossier list (spec doc 3 section 7 "View lists"): the kanban board's columns and
// one column's page, the calendar's range. Each is the list call (same permissions, embedded mode,
// filters and paging) narrowed by the entity's view settings; a field the user may not see in any view
// is treated as not configured, so its values never leave the server.

type Query = Record<string, unknown>;
const SEEN_VIEWS = ['list', 'search', 'advanced-search', 'show', 'edit', 'show/edit'];

const first = (v: unknown) => {
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one.trim() : undefined;
};

/** The entity opened for show, by the list call's defDossier and environment parameters. */
async function openViewEntity(db: Db, user: UserRow, query: Query) {
  const defDossierId = positiveId(query.defDossier);
  if (!defDossierId) throw badRequest({ defDossier: 'This is a required field' });
  const environmentId = query.environment === undefined ? null : positiveId(query.environment);
  if (query.environment !== undefined && !environmentId)
    throw badRequest({ environment: 'Enter a valid id' });
  return openEntityForShow(db, user, defDossierId, environmentId);
}

/** A data field id from the entity's settings, when the user sees that field somewhere; else null. */
async function seenField(
  db: Db,
  scope: EntityScope,
  setting: unknown,
  extraView: string | null,
): Promise<{ dataFieldId: number; items: VisibleItem[] } | null> {
  const id =
    typeof setting === 'number' ? setting : typeof setting === 'string' ? Number(setting) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const views = extraView ? [...SEEN_VIEWS, extraView] : SEEN_VIEWS;
  const items = (await visibleItems(db, scope.access, scope.entity.id, views)).filter(
    (v) => v.dataField?.id === id,
  );
  return items.length ? { dataFieldId: id, items } : null;
}

/** The user's edit item of a data field (what a write through the dossier calls is keyed by). */
async function editItemOf(db: Db, scope: EntityScope, dataFieldId: number): Promise<VisibleItem | null> {
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  return items.find((v) => v.dataField?.id === dataFieldId) ?? null;
}

const settingsOf = (scope: EntityScope) => (scope.entity.settings ?? {}) as Record<string, unknown>;
const customView = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
const jsonKey = (dataFieldId: number) => sql.lit(checkedId(dataFieldId));

// ---- kanban ----

async function kanbanFields(db: Db, scope: EntityScope) {
  const settings = settingsOf(scope);
  const view = customView(settings.kanban_custom_view);
  const [search, list] = await Promise.all([
    seenField(db, scope, settings.kanban_search_field, view),
    seenField(db, scope, settings.kanban_list_field, view),
  ]);
  const listIsList = list?.items.some(
    (v) => v.field?.type === 'list' || valueRefsOf(v.field?.type) === 'options',
  );
  return { view, search, list: list && listIsList ? list : null };
}

type KanbanList = NonNullable<Awaited<ReturnType<typeof kanbanFields>>['list']>;
type KanbanSearch = NonNullable<Awaited<ReturnType<typeof kanbanFields>>['search']>;

/**
 * A dossier holds the option `option` (an integer in SQL: the board's column) of the kanban list
 * field: as the column call's condition, by the field's index or the GIN on values.
 */
function holdsOption(list: KanbanList, option: RawBuilder<unknown>): RawBuilder<boolean> {
  if (fieldSettingsOf(list.items[0]).multiple === true)
    return sql<boolean>`"values" @> jsonb_build_object(${String(list.dataFieldId)}::text, jsonb_build_array(${option}))`;
  return sql<boolean>`("values" -> ${jsonKey(list.dataFieldId)}) = to_jsonb(${option})`;
}

/** The kanban search: the text in the search field, or no narrowing (null). */
function searchCondition(search: KanbanSearch, query: Query): RawBuilder<boolean> | null {
  const text = first(query.search);
  return text
    ? sql<boolean>`(("values" ->> ${jsonKey(search.dataFieldId)}) ilike ${likeContains(text)})`
    : null;
}

/**
 * GET /api/contentdossier/kanban/board: the columns and the first page of each (with `search`, of the
 * cards that match it), all pages in one statement; the column call reads the pages after it.
 */
export async function kanbanBoard(
  db: Db,
  user: UserRow,
  query: Query,
  options: ListOptions = {},
): Promise<KanbanBoardAnswer> {
  const scope = await openViewEntity(db, user, query);
  const { view, search, list } = await kanbanFields(db, scope);
  const missing = !search ? 'kanban_search_field' : !list ? 'kanban_list_field' : null;
  if (missing || !list || !search)
    return { missing, columns: [], list_item_id: null, multiple: false, pages: {} };
  const field = list.items[0];
  const columns = await visibleListOptions(db, scope.access, field.field ? [field.field.id] : []);
  const edit = canEditDossiers(scope) ? await editItemOf(db, scope, list.dataFieldId) : null;
  const { search: _s, page: _p, ...rest } = query;
  const condition = searchCondition(search, query);
  const pages = await listColumnPages(
    db,
    user,
    { ...rest, limit: rest.limit ?? String(KANBAN_PAGE_SIZE) },
    {
      item: field,
      optionIds: columns.map((option) => option.id),
      inColumn: (option) => holdsOption(list, option),
    },
    { ...options, ...(condition ? { condition } : {}), itemsView: view ?? 'list' },
  );
  return {
    missing: null,
    columns: columns.map(presentListOption),
    list_item_id: edit?.item.id ?? null,
    multiple: fieldSettingsOf(field).multiple === true,
    pages,
  };
}

/** GET /api/contentdossier/kanban: one column's page (option={id}, or option=none for no value). */
export async function kanbanColumn(db: Db, user: UserRow, query: Query, options: ListOptions = {}) {
  const scope = await openViewEntity(db, user, query);
  const { view, search, list } = await kanbanFields(db, scope);
  if (!search)
    throw badRequest({ kanban_search_field: 'Contact your administrator, no kanban search field set.' });
  if (!list) throw badRequest({ kanban_list_field: 'Contact your administrator, no kanban list field set.' });
  const optionText = first(query.option);
  const key = jsonKey(list.dataFieldId);
  let condition: RawBuilder<boolean>;
  if (optionText === 'none') {
    condition = sql<boolean>`coalesce(jsonb_typeof("values" -> ${key}), 'null') = 'null' or "values" -> ${key} = '[]'::jsonb`;
    condition = sql<boolean>`(${condition})`;
  } else {
    const option = positiveId(optionText);
    if (!option) throw badRequest({ option: 'Enter a valid option' });
    // single lists: the expression of the field's index (field-expression.ts); multiple: the GIN on values
    condition =
      fieldSettingsOf(list.items[0]).multiple === true
        ? sql<boolean>`"values" @> ${JSON.stringify({ [String(list.dataFieldId)]: [option] })}::jsonb`
        : sql<boolean>`("values" -> ${key}) = ${JSON.stringify(option)}::jsonb`;
  }
  const narrowed = searchCondition(search, query);
  if (narrowed) condition = sql<boolean>`(${condition} and ${narrowed})`;
  const { option: _o, search: _s, ...rest } = query;
  return listDossiers(db, user, rest, { ...options, condition, itemsView: view ?? 'list' });
}

// ---- calendar ----

async function calendarFields(db: Db, scope: EntityScope) {
  const settings = settingsOf(scope);
  const view = customView(settings.calendar_custom_view);
  const [dateField, listStart, listEnd, editStart, editEnd] = await Promise.all(
    [
      settings.calendar_date_field,
      settings.calendar_date_list_field,
      settings.calendar_date_list_field_end,
      settings.calendar_edit_start,
      settings.calendar_edit_end,
    ].map((setting) => seenField(db, scope, setting, view)),
  );
  // A date field alone makes one-day events; a date list field with an end makes spans.
  const start = listStart ?? dateField;
  const end = listStart ? listEnd : null;
  const missing: CalendarAnswer['missing'] = !start
    ? 'calendar_date_field'
    : settings.calendar_date_list_field_end && !listStart
      ? 'calendar_date_list_field'
      : null;
  return { view, start, end, editStart, editEnd, missing, settings };
}

const withTime = (field: { items: VisibleItem[] } | null) =>
  field ? fieldSettingsOf(field.items[0]).withtime === true : false;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** GET /api/contentdossier/calendar?start=YYYY-MM-DD&end=YYYY-MM-DD (end exclusive) */
export async function calendarRange(
  db: Db,
  user: UserRow,
  query: Query,
  options: ListOptions = {},
): Promise<CalendarAnswer> {
  const scope = await openViewEntity(db, user, query);
  const fields = await calendarFields(db, scope);
  const defaultView = fields.settings.calendar_default === 'week' ? 'week' : 'month';
  const editable = {
    start: canEditDossiers(scope) && fields.editStart !== null,
    end: canEditDossiers(scope) && fields.editEnd !== null,
  };
  const from = first(query.start);
  const to = first(query.end);
  const errors: Record<string, string> = {};
  if (!from || !DAY.test(from) || Number.isNaN(Date.parse(from))) errors.start = 'Enter a valid date';
  if (!to || !DAY.test(to) || Number.isNaN(Date.parse(to))) errors.end = 'Enter a valid date';
  if (Object.keys(errors).length) throw badRequest(errors);
  const empty = {
    results: { dossiers: [], contents: {}, items: [], aggregations: [] },
    pager: { current: 0, pages: 0, items: 0, limit: 0 },
  };
  if (fields.missing || !fields.start)
    return {
      ...empty,
      missing: fields.missing,
      default_view: defaultView,
      editable,
      with_time: false,
      events: [],
    };
  // Stored dates are ISO text ('YYYY-MM-DD' or a UTC instant), which orders as the dates do.
  const startKey = jsonKey(fields.start.dataFieldId);
  const startText = sql`("values" ->> ${startKey})`;
  const endText = fields.end
    ? sql`coalesce("values" ->> ${jsonKey(fields.end.dataFieldId)}, ${startText})`
    : startText;
  const condition = sql<boolean>`(${startText} < ${to} and ${endText} >= ${from})`;
  const { start: _s, end: _e, ...rest } = query;
  const limit = first(query.limit) ?? '500';
  const list = await listDossiers(
    db,
    user,
    { ...rest, limit },
    { ...options, condition, itemsView: fields.view ?? 'list' },
  );
  const ids = list.results.dossiers.map((d) => d.id);
  const rows = ids.length
    ? await db
        .selectFrom('content_dossier')
        .select(['id', 'values'])
        .where('environment_id', '=', scope.access.environment.id)
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [Number(r.id), (r.values ?? {}) as Record<string, unknown>]));
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const events = ids.flatMap((id) => {
    const values = byId.get(id) ?? {};
    const start = text(values[String(fields.start?.dataFieldId)]);
    if (!start) return [];
    const end = fields.end ? text(values[String(fields.end.dataFieldId)]) : null;
    return [{ id, start, end }];
  });
  return {
    ...list,
    missing: null,
    default_view: defaultView,
    editable,
    with_time: withTime(fields.start),
    events,
  };
}

/** The stored form of a date for this field: the day alone without time, a UTC instant with time. */
function dateFor(item: VisibleItem, value: string): string {
  const date = new Date(value);
  if (fieldSettingsOf(item).withtime === true) return date.toISOString();
  return DAY.test(value) ? value : date.toISOString().slice(0, 10);
}

/** PATCH /api/contentdossier/{id}/calendar: writes calendar_edit_start and calendar_edit_end. */
export async function moveCalendarEvent(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  input: { start: string; end?: string | null },
) {
  const fields = await calendarFields(db, scope);
  const [startItem, endItem] = await Promise.all([
    fields.editStart ? editItemOf(db, scope, fields.editStart.dataFieldId) : null,
    fields.editEnd ? editItemOf(db, scope, fields.editEnd.dataFieldId) : null,
  ]);
  if (!startItem && !(endItem && input.end)) throw forbidden();
  if (input.end && Date.parse(input.end) < Date.parse(input.start))
    throw badRequest({ end: 'Enter a valid date' });
  const values: Record<string, unknown> = {};
  if (startItem) values[String(startItem.item.id)] = dateFor(startItem, input.start);
  if (endItem && input.end) values[String(endItem.item.id)] = dateFor(endItem, input.end);
  await updateDossier(db, scope, dossier, { values, ignore_existing: true });
}
