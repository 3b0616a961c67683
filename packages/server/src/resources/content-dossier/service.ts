import { isDeepStrictEqual } from 'node:util';
import {
  type CalcSettings,
  type Condition,
  computeCalc,
  conditionsSchema,
  DOSSIER_MESSAGES,
  evaluateConditions,
  type FieldContext,
  type FormulaValue,
  getFieldType,
  isEmptyFieldValue,
  LINK_MESSAGES,
  type ListOptionRef,
  type PermissionAction,
  parseFieldSettings,
} from '@dossierbase/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ContentDossierTable, DefDossierTable, DossierLogChange, UserRow } from '../../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../../http-errors';
import { configCached } from '../../policy/config-cache';
import { type LinkRow, type VisibleItem, visibleItems, visibleListOptions } from '../../policy/display-item';
import { type EntityScope, entityPermissions, openEntityScope } from '../../policy/entity';
import type { EnvironmentAccess } from '../../policy/environment';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';
import { sanitiseStoredRichText } from '../../sanitise/rich-text';
import { fileValueProblem } from '../file/service';
import { computeSummary, hasEmptyText, summaryConfig, withIdWhenEmpty } from './summary';

export type DossierRow = Selectable<ContentDossierTable>;
export type EntityRow = Selectable<DefDossierTable>;

export const EDIT_VIEWS = ['edit', 'show/edit'];
export const DETAIL_VIEWS = ['edit', 'show', 'show/edit'];
export const CONSTRAINT_MESSAGE = 'This dossier cannot be deleted while other dossiers are linked to it';

/** Types whose value the server computes or does not keep: submitted values are ignored. */
const SERVER_TYPES = new Set(['autoIncrement', 'calc', 'systemdate', 'systemuser', 'customActionButton']);

/** A backlink row points at its forward link, which was created first (lower id). */
export const isBacklink = (link: LinkRow) => link.back_link_id !== null && link.back_link_id < link.id;
const forwardLinkId = (link: LinkRow) => (isBacklink(link) ? (link.back_link_id as number) : link.id);

/** Loads a dossier and the user's scope on its entity; 404 unknown, 403 when `action` is missing. */
export async function openDossier(db: Db, user: UserRow, id: number, action: PermissionAction) {
  const dossier = await db.selectFrom('content_dossier').selectAll().where('id', '=', id).executeTakeFirst();
  if (!dossier) throw notFound();
  const scope = await openEntityScope(db, user, dossier.def_dossier_id);
  if (!scope.permissions.has(action)) throw forbidden();
  return { dossier, ...scope };
}

export function requirePermission(scope: EntityScope, action: PermissionAction) {
  if (!scope.permissions.has(action)) throw forbidden();
}

const itemName = (v: VisibleItem) =>
  v.item.translations[0]?.name || v.dataField?.name || v.link?.name || String(v.item.id);

const fieldSettings = (v: VisibleItem) =>
  parseFieldSettings(v.field?.type ?? 'text', {
    ...(v.field?.settings ?? {}),
    ...(v.dataField?.settings ?? {}),
  });

/** List options the user may choose: admins all, others not those restricted to one of their roles. */
async function listOptions(db: Db, access: EnvironmentAccess, defFieldId: number): Promise<ListOptionRef[]> {
  const rows = await visibleListOptions(db, access, [defFieldId]);
  return rows.map((row) => ({ id: row.id, label: row.translations[0]?.text }));
}

async function environmentUsers(db: Db, environmentId: number) {
  const rows = await db
    .selectFrom('environment_user as eu')
    .innerJoin('app_user as u', 'u.id', 'eu.user_id')
    .select(['u.id', 'u.username'])
    .where('eu.environment_id', '=', environmentId)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.username }));
}

interface Normalised {
  /** data-field id -> stored value */
  values: Record<string, unknown>;
  /** forward link id -> {item, ids} for the link items that were sent */
  links: { item: VisibleItem; ids: number[] }[];
  errors: Record<string, string>;
}

async function normaliseValues(
  db: Db,
  scope: EntityScope,
  allowed: Map<string, VisibleItem>,
  submitted: Record<string, unknown>,
  stored: Record<string, unknown> = {},
): Promise<Normalised> {
  const out: Normalised = { values: {}, links: [], errors: {} };
  const ctxBase: FieldContext = { now: new Date(), currentUserId: scope.access.user.id };
  for (const [key, raw] of Object.entries(submitted)) {
    const v = allowed.get(key);
    if (!v) {
      out.errors[key] = DOSSIER_MESSAGES.unknownItem;
      continue;
    }
    if (v.link) {
      const result = getFieldType('link').normalise(raw, parseFieldSettings('link', { multiple: true }));
      if (!result.ok) {
        out.errors[key] = result.message;
        continue;
      }
      const ids = (result.value as number[] | null) ?? [];
      const multiple = v.link.type_of_link === 'embeddedList' || v.link.settings.multiple === true;
      if (!multiple && ids.length > 1) {
        out.errors[key] = DOSSIER_MESSAGES.singleLink;
        continue;
      }
      if (ids.length) {
        const found = await db
          .selectFrom('content_dossier')
          .select('id')
          .where('id', 'in', ids)
          .where('environment_id', '=', scope.access.environment.id)
          .where('def_dossier_id', '=', v.link.child_def_dossier_id)
          .execute();
        const known = new Set(found.map((row) => Number(row.id)));
        const missing = ids.find((id) => !known.has(id));
        if (missing !== undefined) {
          out.errors[key] = LINK_MESSAGES.unknown(missing);
          continue;
        }
      }
      out.links.push({ item: v, ids });
      continue;
    }
    if (!v.dataField || !v.field) {
      out.errors[key] = DOSSIER_MESSAGES.unknownItem;
      continue;
    }
    const type = v.field.type;
    if (SERVER_TYPES.has(type)) continue;
    const ctx: FieldContext = { ...ctxBase };
    if (type === 'list' || type === 'tree') {
      // An option restricted from the user's roles that is already selected stays allowed.
      const current = stored[String(v.dataField.id)];
      const kept = (Array.isArray(current) ? current : [current]).filter((id) => typeof id === 'number');
      ctx.options = [...(await listOptions(db, scope.access, v.field.id)), ...kept.map((id) => ({ id }))];
    }
    if (type === 'user') ctx.users = await environmentUsers(db, scope.access.environment.id);
    const result = getFieldType(type).normalise(raw, fieldSettings(v), ctx);
    if (!result.ok) {
      out.errors[key] = result.message;
      continue;
    }
    let value = result.value;
    if (type === 'file' && value !== null) {
      const problem = await fileValueProblem(db, scope.access.environment.id, value, fieldSettings(v));
      if (problem) {
        out.errors[key] = problem;
        continue;
      }
    }
    if (type === 'textarea' && typeof value === 'string') {
      value = await sanitiseStoredRichText(db, scope.access.environment.id, value);
      if (value === '') value = null;
    }
    out.values[String(v.dataField.id)] = value;
  }
  return out;
}

const entityConditions = (entity: EntityRow): Condition[] => {
  const parsed = conditionsSchema.safeParse(entity.settings.conditions ?? []);
  return parsed.success ? parsed.data : [];
};

/** Values keyed by display item id (for conditions), from values keyed by data-field id. */
function valuesByItem(items: VisibleItem[], values: Record<string, unknown>, links: Map<number, number[]>) {
  const byItem: Record<string, unknown> = {};
  for (const v of items) {
    if (v.dataField) byItem[String(v.item.id)] = values[String(v.dataField.id)] ?? null;
    else if (v.link) byItem[String(v.item.id)] = links.get(v.item.id) ?? [];
  }
  return byItem;
}

function checkRequired(
  entity: EntityRow,
  checked: VisibleItem[],
  allItems: VisibleItem[],
  values: Record<string, unknown>,
  links: Map<number, number[]>,
  errors: Record<string, string>,
) {
  const { hidden, required } = evaluateConditions(
    entityConditions(entity),
    valuesByItem(allItems, values, links),
  );
  for (const v of checked) {
    const id = String(v.item.id);
    if (hidden.has(id) || errors[id]) continue;
    if (v.field && SERVER_TYPES.has(v.field.type)) continue;
    const obligatory = v.dataField?.obligatory || v.link?.obligatory || required.has(id);
    if (!obligatory) continue;
    const empty = v.link
      ? (links.get(v.item.id) ?? []).length === 0
      : v.dataField
        ? isEmptyFieldValue(values[String(v.dataField.id)])
        : false;
    if (empty) errors[id] = DOSSIER_MESSAGES.required;
  }
}

async function linkedIds(db: Db, dossierId: number, link: LinkRow): Promise<number[]> {
  const rows = isBacklink(link)
    ? await db
        .selectFrom('content_link')
        .select('parent_id as other')
        .where('link_id', '=', forwardLinkId(link))
        .where('child_id', '=', dossierId)
        .orderBy('rank')
        .orderBy('id')
        .execute()
    : await db
        .selectFrom('content_link')
        .select('child_id as other')
        .where('link_id', '=', link.id)
        .where('parent_id', '=', dossierId)
        .orderBy('rank')
        .orderBy('id')
        .execute();
  return rows.map((row) => Number(row.other));
}

async function writeLinks(db: Db, environmentId: number, dossierId: number, link: LinkRow, ids: number[]) {
  const back = isBacklink(link);
  const fwd = forwardLinkId(link);
  await db
    .deleteFrom('content_link')
    .where('link_id', '=', fwd)
    .where(back ? 'child_id' : 'parent_id', '=', dossierId)
    .execute();
  if (ids.length === 0) return;
  await db
    .insertInto('content_link')
    .values(
      ids.map((other, rank) => ({
        environment_id: environmentId,
        link_id: fwd,
        parent_id: back ? other : dossierId,
        child_id: back ? dossierId : other,
        rank,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Duplicate check of text fields with the UniqueValue validator. */
async function duplicates(
  db: Db,
  scope: EntityScope,
  items: VisibleItem[],
  values: Record<string, unknown>,
  selfId: number | null,
) {
  const errors: Record<string, string> = {};
  const existing = new Map<number, string>();
  for (const v of items) {
    if (!v.dataField || v.field?.type !== 'text') continue;
    const settings = fieldSettings(v) as { validators: string[] };
    if (!settings.validators.includes('UniqueValue')) continue;
    const value = values[String(v.dataField.id)];
    if (typeof value !== 'string' || value === '') continue;
    let query = db
      .selectFrom('content_dossier')
      .select(['id', 'summary', 'summaries'])
      .where('environment_id', '=', scope.access.environment.id)
      .where('def_dossier_id', '=', scope.entity.id)
      .where(sql<string>`"values" ->> ${String(v.dataField.id)}`, '=', value);
    if (selfId !== null) query = query.where('id', '!=', selfId);
    const rows = await query.limit(10).execute();
    if (rows.length) {
      errors[String(v.item.id)] = DOSSIER_MESSAGES.duplicate;
      const key = (await readerSummaryKeys(db, scope.access)).get(scope.entity.id);
      for (const row of rows) existing.set(Number(row.id), visibleSummary(row, key));
    }
  }
  if (Object.keys(errors).length === 0) return;
  throw new HttpError(409, {
    errors,
    existing: [...existing].map(([id, summary]) => ({ id, summary })),
    constraint_type: 'warning',
  });
}

/** All data fields of the entity with their base field (for server-computed fields); configuration, cached. */
function entityDataFields(db: Db, access: EnvironmentAccess, entityId: number) {
  return configCached(access, `data-fields:${entityId}`, () =>
    db
      .selectFrom('def_dossier_def_field as d')
      .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
      .select(['d.id', 'd.name', 'd.settings as data_settings', 'f.type', 'f.settings', 'f.id as field_id'])
      .where('d.def_dossier_id', '=', entityId)
      .orderBy('d.id')
      .execute(),
  );
}

async function computeServerValues(
  db: Db,
  trx: Db,
  scope: EntityScope,
  values: Record<string, unknown>,
  creating: boolean,
) {
  const fields = await entityDataFields(db, scope.access, scope.entity.id);
  if (creating) {
    for (const f of fields.filter((f) => f.type === 'autoIncrement')) {
      const row = await trx
        .insertInto('auto_increment_counter')
        .values({ def_dossier_def_field_id: f.id, value: 1 })
        .onConflict((oc) =>
          oc.column('def_dossier_def_field_id').doUpdateSet({ value: sql`auto_increment_counter.value + 1` }),
        )
        .returning('value')
        .executeTakeFirstOrThrow();
      values[String(f.id)] = Number(row.value);
    }
  }
  const calcs = fields.filter((f) => f.type === 'calc');
  if (calcs.length === 0) return;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const lookup = (name: string): FormulaValue | undefined => {
    const f = byName.get(name);
    if (!f) return undefined;
    const value = values[String(f.id)];
    if (value === undefined) return null;
    return value as FormulaValue;
  };
  // Calc fields may refer to each other: two passes settle one level of nesting.
  for (let pass = 0; pass < 2; pass++) {
    for (const f of calcs) {
      const settings = parseFieldSettings('calc', { ...f.settings, ...f.data_settings }) as CalcSettings;
      const result = computeCalc(settings, lookup);
      values[String(f.id)] = result.ok ? result.value : null;
    }
  }
}

async function writeLog(
  db: Db,
  scope: EntityScope,
  dossierId: number,
  type: 'create' | 'change' | 'archive' | 'delete',
  changes: DossierLogChange[],
) {
  await db
    .insertInto('dossier_log')
    .values({
      environment_id: scope.access.environment.id,
      content_dossier_id: dossierId,
      def_dossier_id: scope.entity.id,
      type,
      user_id: scope.access.user.id,
      username: scope.access.user.username,
      changes: JSON.stringify(changes),
    })
    .execute();
}

const itemMap = (items: VisibleItem[]) => new Map(items.map((v) => [String(v.item.id), v]));

export const EMBEDDED_MESSAGES = {
  both: 'Give both embedded and linkId',
  link: 'Unknown link',
  parent: 'Unknown dossier',
} as const;

/** The parent dossier and link of a dossier created inside an embedded list (spec: embedded, linkId). */
async function embeddedParent(
  db: Db,
  scope: EntityScope,
  input: { embedded?: number; linkId?: number },
): Promise<{ link: LinkRow; parentId: number } | null> {
  if (input.embedded === undefined && input.linkId === undefined) return null;
  if (input.embedded === undefined || input.linkId === undefined)
    throw badRequest({ [input.embedded === undefined ? 'embedded' : 'linkId']: EMBEDDED_MESSAGES.both });
  const link = await db
    .selectFrom('def_dossier_link')
    .selectAll()
    .where('id', '=', input.linkId)
    .where('environment_id', '=', scope.access.environment.id)
    .where('child_def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!link) throw badRequest({ linkId: EMBEDDED_MESSAGES.link });
  const parent = await db
    .selectFrom('content_dossier')
    .select(['id', 'archived'])
    .where('id', '=', input.embedded)
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', link.def_dossier_id)
    .executeTakeFirst();
  if (!parent) throw badRequest({ embedded: EMBEDDED_MESSAGES.parent });
  if (parent.archived) throw badRequest({ embedded: DOSSIER_MESSAGES.archived });
  if (!(await entityPermissions(db, scope.access, link.def_dossier_id)).has('show')) throw forbidden();
  const single = link.type_of_link === 'select' && link.settings.multiple !== true;
  if (single && (await linkedIds(db, Number(parent.id), link)).length > 0)
    throw badRequest({ linkId: DOSSIER_MESSAGES.singleLink });
  return { link, parentId: Number(parent.id) };
}

async function appendLink(db: Db, environmentId: number, parentId: number, link: LinkRow, newId: number) {
  const back = isBacklink(link);
  const fwd = forwardLinkId(link);
  const max = await db
    .selectFrom('content_link')
    .select((eb) => eb.fn.max('rank').as('rank'))
    .where('link_id', '=', fwd)
    .where(back ? 'child_id' : 'parent_id', '=', parentId)
    .executeTakeFirst();
  await db
    .insertInto('content_link')
    .values({
      environment_id: environmentId,
      link_id: fwd,
      parent_id: back ? newId : parentId,
      child_id: back ? parentId : newId,
      rank: Number(max?.rank ?? -1) + 1,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function createDossier(
  db: Db,
  scope: EntityScope,
  input: {
    values: Record<string, unknown>;
    ignore_existing: boolean;
    embedded?: number;
    linkId?: number;
  },
): Promise<number> {
  requirePermission(scope, 'create');
  const embedded = await embeddedParent(db, scope, input);
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const normalised = await normaliseValues(db, scope, itemMap(items), input.values);
  const links = new Map(normalised.links.map((l) => [l.item.item.id, l.ids]));
  checkRequired(scope.entity, items, items, normalised.values, links, normalised.errors);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  if (!input.ignore_existing) await duplicates(db, scope, items, normalised.values, null);

  return db.transaction().execute(async (trx) => {
    const values = { ...normalised.values };
    await computeServerValues(db, trx, scope, values, true);
    const stored = computeSummary(await summaryConfig(db, scope.access, scope.entity.id), values);
    const row = await trx
      .insertInto('content_dossier')
      .values({
        environment_id: scope.access.environment.id,
        def_dossier_id: scope.entity.id,
        values: JSON.stringify(values),
        summary: stored.summary,
        summaries: stored.summaries && JSON.stringify(stored.summaries),
        created_by: scope.access.user.id,
        modified_by: scope.access.user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    // a dossier without summary values is summarised by its id, known only now
    if (hasEmptyText(stored)) {
      const withId = withIdWhenEmpty(stored, id);
      await trx
        .updateTable('content_dossier')
        .set({ summary: withId.summary, summaries: withId.summaries && JSON.stringify(withId.summaries) })
        .where('id', '=', id)
        .execute();
    }
    for (const l of normalised.links) {
      if (l.item.link) await writeLinks(trx, scope.access.environment.id, id, l.item.link, l.ids);
    }
    if (embedded) await appendLink(trx, scope.access.environment.id, embedded.parentId, embedded.link, id);
    const changes: DossierLogChange[] = [];
    for (const v of items) {
      const key = String(v.item.id);
      if (!Object.hasOwn(input.values, key)) continue;
      const newValue = v.dataField ? (values[String(v.dataField.id)] ?? null) : (links.get(v.item.id) ?? []);
      changes.push({ defDisplayItemName: itemName(v), oldValue: null, newValue });
    }
    await writeLog(trx, scope, id, 'create', changes);
    return id;
  });
}

export async function updateDossier(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  input: {
    values: Record<string, unknown>;
    ignore_existing: boolean;
    displayPosition?: number;
    /** only this display item is checked and written (single-item calls such as contentlist) */
    onlyItem?: number;
  },
) {
  requirePermission(scope, 'edit');
  if (dossier.archived) throw badRequest({ dossier: DOSSIER_MESSAGES.archived });
  const allItems = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const items = allItems.filter(
    (v) =>
      (input.displayPosition === undefined || v.item.display_position_id === input.displayPosition) &&
      (input.onlyItem === undefined || v.item.id === input.onlyItem),
  );
  const oldValues = dossier.values as Record<string, unknown>;
  const normalised = await normaliseValues(db, scope, itemMap(items), input.values, oldValues);
  const values = { ...oldValues, ...normalised.values };
  const links = new Map<number, number[]>();
  const oldLinks = new Map<number, number[]>();
  for (const v of allItems) {
    if (!v.link) continue;
    const current = await linkedIds(db, Number(dossier.id), v.link);
    oldLinks.set(v.item.id, current);
    links.set(v.item.id, current);
  }
  for (const l of normalised.links) links.set(l.item.item.id, l.ids);
  checkRequired(scope.entity, items, allItems, values, links, normalised.errors);
  if (Object.keys(normalised.errors).length) throw badRequest(normalised.errors);
  if (!input.ignore_existing) {
    // Only a value the user changes can become a duplicate: an unchanged one was accepted before.
    const changed = Object.fromEntries(
      Object.entries(normalised.values).filter(([key, value]) => !isDeepStrictEqual(oldValues[key], value)),
    );
    await duplicates(db, scope, items, changed, Number(dossier.id));
  }

  await db.transaction().execute(async (trx) => {
    await computeServerValues(db, trx, scope, values, false);
    const id = Number(dossier.id);
    const config = await summaryConfig(db, scope.access, scope.entity.id);
    const stored = withIdWhenEmpty(computeSummary(config, values), id);
    await trx
      .updateTable('content_dossier')
      .set({
        values: JSON.stringify(values),
        summary: stored.summary,
        summaries: stored.summaries && JSON.stringify(stored.summaries),
        modified_by: scope.access.user.id,
        modified_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    for (const l of normalised.links) {
      if (l.item.link) await writeLinks(trx, scope.access.environment.id, id, l.item.link, l.ids);
    }
    const changes: DossierLogChange[] = [];
    for (const v of items) {
      if (!Object.hasOwn(input.values, String(v.item.id))) continue;
      const [oldValue, newValue] = v.dataField
        ? [oldValues[String(v.dataField.id)] ?? null, values[String(v.dataField.id)] ?? null]
        : [oldLinks.get(v.item.id) ?? [], links.get(v.item.id) ?? []];
      if (JSON.stringify(oldValue) !== JSON.stringify(newValue))
        changes.push({ defDisplayItemName: itemName(v), oldValue, newValue });
    }
    await writeLog(trx, scope, id, 'change', changes);
  });
}

export async function detailItems(db: Db, scope: EntityScope, displayPosition?: number) {
  const items = await visibleItems(db, scope.access, scope.entity.id, DETAIL_VIEWS);
  if (displayPosition === undefined) return items;
  const position = await db
    .selectFrom('display_position')
    .select('id')
    .where('id', '=', displayPosition)
    .where('def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!position) throw notFound();
  return items.filter((v) => v.item.display_position_id === displayPosition);
}

/** systemdate / systemuser fields read the dossier's own dates and users. */
function systemValue(dossier: DossierRow, type: string, settings: unknown) {
  const key = (settings as { dossier_data?: string }).dossier_data;
  if (type === 'systemdate') {
    const date = key === 'modified_at' ? dossier.modified_at : dossier.created_at;
    return new Date(date).toISOString();
  }
  return (key === 'modified_by' ? dossier.modified_by : dossier.created_by) ?? null;
}

/**
 * Display item id -> value; links as the linked dossiers (the user has show on the child entity), with
 * the summaries the user may see.
 */
export async function dossierContent(
  db: Db,
  access: EnvironmentAccess,
  dossier: DossierRow,
  items: VisibleItem[],
) {
  const values = dossier.values as Record<string, unknown>;
  const summaryKeys = await readerSummaryKeys(db, access);
  const content: Record<string, unknown> = {};
  for (const v of items) {
    if (v.dataField && (v.field?.type === 'systemdate' || v.field?.type === 'systemuser'))
      content[String(v.item.id)] = systemValue(dossier, v.field.type, fieldSettings(v));
    else if (v.dataField) content[String(v.item.id)] = values[String(v.dataField.id)] ?? null;
    else if (v.link) {
      const ids = await linkedIds(db, Number(dossier.id), v.link);
      const rows = ids.length
        ? await db
            .selectFrom('content_dossier')
            .select(['id', 'summary', 'summaries', 'def_dossier_id', 'archived'])
            .where('id', 'in', ids)
            .where('environment_id', '=', dossier.environment_id)
            .execute()
        : [];
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      content[String(v.item.id)] = ids.flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        const summary = visibleSummary(row, summaryKeys.get(row.def_dossier_id));
        return [{ id, summary, def_dossier_id: row.def_dossier_id, archived: row.archived }];
      });
    }
  }
  return content;
}

export async function marks(db: Db, userId: number, dossierId: number) {
  const [favourite, subscription] = await Promise.all([
    db
      .selectFrom('favourite')
      .select('id')
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossierId)
      .executeTakeFirst(),
    db
      .selectFrom('dossier_subscription')
      .select('id')
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossierId)
      .executeTakeFirst(),
  ]);
  return { favorite: Boolean(favourite), subscribed: Boolean(subscription) };
}

export async function setMark(
  db: Db,
  table: 'favourite' | 'dossier_subscription',
  dossier: DossierRow,
  userId: number,
  on: boolean,
) {
  if (on) {
    await db
      .insertInto(table)
      .values({ environment_id: dossier.environment_id, user_id: userId, content_dossier_id: dossier.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db
      .deleteFrom(table)
      .where('user_id', '=', userId)
      .where('content_dossier_id', '=', dossier.id)
      .execute();
  }
}

export async function setArchived(db: Db, scope: EntityScope, dossier: DossierRow, archived: boolean) {
  if (!scope.entity.archivable) throw forbidden();
  requirePermission(scope, 'archive');
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('content_dossier')
      .set({ archived, modified_by: scope.access.user.id, modified_at: new Date() })
      .where('id', '=', dossier.id)
      .execute();
    await writeLog(trx, scope, Number(dossier.id), 'archive', [
      { defDisplayItemName: 'archived', oldValue: dossier.archived, newValue: archived },
    ]);
  });
}

/** Deletes a dossier honouring the cascade rule of the links of its entity (forward links only). */
export async function deleteDossier(db: Db, scope: EntityScope, dossier: DossierRow) {
  requirePermission(scope, 'delete');
  await db.transaction().execute(async (trx) => {
    const seen = new Set<number>();
    const remove = async (id: number, entityId: number) => {
      if (seen.has(id)) return;
      seen.add(id);
      const links = await trx
        .selectFrom('def_dossier_link')
        .selectAll()
        .where('def_dossier_id', '=', entityId)
        .execute();
      for (const link of links.filter((l) => !isBacklink(l))) {
        if (link.cascade_rule === 'maintain') continue;
        const children = await trx
          .selectFrom('content_link as l')
          .innerJoin('content_dossier as c', 'c.id', 'l.child_id')
          .select(['c.id', 'c.def_dossier_id'])
          .where('l.link_id', '=', link.id)
          .where('l.parent_id', '=', id)
          .execute();
        if (children.length === 0) continue;
        if (link.cascade_rule === 'constraint') throw badRequest({ dossier: CONSTRAINT_MESSAGE });
        for (const child of children) await remove(Number(child.id), child.def_dossier_id);
      }
      await trx
        .insertInto('dossier_log')
        .values({
          environment_id: scope.access.environment.id,
          content_dossier_id: id,
          def_dossier_id: entityId,
          type: 'delete',
          user_id: scope.access.user.id,
          username: scope.access.user.username,
          changes: JSON.stringify([]),
        })
        .execute();
      await trx.deleteFrom('content_dossier').where('id', '=', id).execute();
    };
    await remove(Number(dossier.id), dossier.def_dossier_id);
  });
}

/** The list field behind a display item of an edit view the user may see; 400 otherwise. */
async function listItem(db: Db, scope: EntityScope, displayItemId: number) {
  const items = await visibleItems(db, scope.access, scope.entity.id, EDIT_VIEWS);
  const v = items.find((i) => i.item.id === displayItemId);
  if (!v?.dataField || (v.field?.type !== 'list' && v.field?.type !== 'tree'))
    throw badRequest({ [String(displayItemId)]: DOSSIER_MESSAGES.unknownItem });
  const settings = fieldSettings(v) as { multiple?: boolean };
  return { v, multiple: settings.multiple === true };
}

/** POST set / add and DELETE remove of list options on one list item; written as an update. */
export async function changeListValue(
  db: Db,
  scope: EntityScope,
  dossier: DossierRow,
  displayItemId: number,
  change: { set?: number[]; add?: number[]; remove?: number },
) {
  const { v, multiple } = await listItem(db, scope, displayItemId);
  const current = (dossier.values as Record<string, unknown>)[String(v.dataField?.id)];
  const currentIds =
    current === null || current === undefined ? [] : Array.isArray(current) ? current : [current];
  let ids: unknown[];
  if (change.set) ids = change.set;
  else if (change.add) ids = [...currentIds, ...change.add.filter((id) => !currentIds.includes(id))];
  else ids = currentIds.filter((id) => id !== change.remove);
  const value = multiple ? ids : ids.length <= 1 ? (ids[0] ?? null) : ids;
  await updateDossier(db, scope, dossier, {
    values: { [String(displayItemId)]: value },
    ignore_existing: true,
    onlyItem: displayItemId,
  });
}

/** tabs_allowed per dossier id: a dossier of the entity in the environment the user may show. */
export async function tabsAllowed(db: Db, scope: EntityScope, ids: number[]) {
  const rows = ids.length
    ? await db
        .selectFrom('content_dossier')
        .select('id')
        .where('id', 'in', ids)
        .where('environment_id', '=', scope.access.environment.id)
        .where('def_dossier_id', '=', scope.entity.id)
        .execute()
    : [];
  const known = new Set(rows.map((row) => Number(row.id)));
  const show = scope.permissions.has('show');
  return ids.map((id) => ({ id, tabs_allowed: show && known.has(id) }));
}

/** Whether the user holds `credential` (a permission action) on one dossier of the entity. */
export async function credentialAllowed(db: Db, scope: EntityScope, credential: string, dossierId?: number) {
  if (!scope.permissions.has(credential as PermissionAction)) return false;
  if (dossierId === undefined) return true;
  const row = await db
    .selectFrom('content_dossier')
    .select('archived')
    .where('id', '=', dossierId)
    .where('environment_id', '=', scope.access.environment.id)
    .where('def_dossier_id', '=', scope.entity.id)
    .executeTakeFirst();
  if (!row) return false;
  return !(credential === 'edit' && row.archived);
}
