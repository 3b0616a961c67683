import { DATE_FILTER_TYPES, DOSSIER_MESSAGES } from '../api/dossier';
import { toYmd, ymdToIso } from '../fields/dates';
import { parseLocaleNumber } from '../fields/shared';
import type { FieldTypeName } from '../fields/types';
import type { Combinator, FieldCondition, LinkCondition, SystemField } from './document';

// The list call's own filter parameters (spec document 2 section 7: {id}, {id}_type, {id}_end,
// {id}_min, {id}_max, keyed by display item id, and summary) in the query model, and back. The server
// compiles only the model; this is the one place that knows the parameter grammar.

export const LIST_FILTER_MESSAGES = {
  unknownItem: DOSSIER_MESSAGES.unknownItem,
  invalidValue: 'Enter a valid value',
  invalidDate: 'Enter a valid date',
  invalidNumber: 'Enter a valid number',
  unsupported: 'This filter is not supported for this field',
} as const;

/** What a list column filters on: a field of the entity, one of the dossier's own columns, or a link. */
export type ListFilterColumn = {
  itemId: number;
  type: FieldTypeName;
  /** stored as a number (numeric or bigint cast) */
  numeric: boolean;
  /** holds several options or users */
  multiple: boolean;
} & (
  | { kind: 'field'; fieldId: number }
  | { kind: 'data'; key: SystemField }
  | { kind: 'link'; linkId: number }
);

const ITEM_PARAM = /^(\d{1,10})(?:_(type|end|min|max))?$/;
const SUFFIXES = ['', 'type', 'end', 'min', 'max'] as const;
type Suffix = (typeof SUFFIXES)[number];

const firstText = (v: unknown): string | undefined => {
  const one = Array.isArray(v) ? v[0] : v;
  const text = typeof one === 'string' ? one : typeof one === 'number' ? String(one) : undefined;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
};

/** "1,2,3": up to 100 distinct positive ids, else null. */
export function parseIdList(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > 100) return null;
  const ids = parts.map((p) => (/^\d{1,15}$/.test(p) ? Number(p) : Number.NaN));
  return ids.every((n) => Number.isSafeInteger(n) && n > 0) ? [...new Set(ids)] : null;
}

export function parseListNumber(text: string): number | null {
  const n = parseLocaleNumber(text.trim());
  return n !== null && Number.isFinite(n) && Math.abs(n) < 1e15 ? n : null;
}

const isDateType = (type: FieldTypeName) => type === 'date' || type === 'systemdate';
const holdsIds = (type: FieldTypeName) =>
  type === 'list' || type === 'tree' || type === 'user' || type === 'systemuser';

export interface ListFilterResult {
  /** one AND combinator holding every filter (empty when none) */
  combinators: Combinator[];
  errors: Record<string, string>;
  /** display items filtered on a single value (what an index could serve, see sort-indexes) */
  equalities: number[];
}

/** The list parameters `query` as conditions on the columns the user may filter on. */
export function listFiltersToQuery(
  query: Record<string, unknown>,
  columns: ReadonlyMap<number, ListFilterColumn>,
): ListFilterResult {
  const errors: Record<string, string> = {};
  const fields: FieldCondition[] = [];
  const links: LinkCondition[] = [];
  const equalities: number[] = [];

  const summary = firstText(query.summary);
  if (summary !== undefined) {
    if (summary.length > 255) errors.summary = LIST_FILTER_MESSAGES.invalidValue;
    else fields.push({ id: 'summary', type: 'string_like_equals', value: summary });
  }

  const perItem = new Map<number, Map<Suffix, { key: string; value: string | undefined }>>();
  for (const [key, raw] of Object.entries(query)) {
    const m = ITEM_PARAM.exec(key);
    if (!m) continue;
    const id = Number(m[1]);
    if (!perItem.has(id)) perItem.set(id, new Map());
    perItem.get(id)?.set((m[2] ?? '') as Suffix, { key, value: firstText(raw) });
  }

  for (const [itemId, parts] of perItem) {
    const present = [...parts.values()].filter((p) => p.value !== undefined);
    if (present.length === 0) continue; // empty search values are dropped (spec doc 2 section 5)
    const column = columns.get(itemId);
    if (!column) {
      for (const p of present) errors[p.key] = LIST_FILTER_MESSAGES.unknownItem;
      continue;
    }
    const get = (suffix: Suffix) => parts.get(suffix)?.value;
    const key = (suffix: Suffix) => parts.get(suffix)?.key ?? `${itemId}${suffix ? `_${suffix}` : ''}`;
    const unsupported = (...suffixes: Suffix[]) => {
      for (const s of suffixes) if (get(s) !== undefined) errors[key(s)] = LIST_FILTER_MESSAGES.unsupported;
    };
    const target = column.kind === 'field' ? column.fieldId : column.kind === 'data' ? column.key : null;
    const add = (type: FieldCondition['type'], value: FieldCondition['value']) => {
      if (target !== null) fields.push({ id: target, type, value });
    };
    const value = get('');

    if (column.kind === 'link') {
      unsupported('type', 'end', 'min', 'max');
      if (value === undefined) continue;
      const ids = parseIdList(value);
      if (!ids) errors[key('')] = LIST_FILTER_MESSAGES.invalidValue;
      else
        links.push({
          id: column.linkId,
          combinators: [
            { combine: 'AND', fields: [{ id: 'id', type: 'in', value: ids }], links: [], combinators: [] },
          ],
        });
      continue;
    }

    if (isDateType(column.type)) {
      unsupported('min', 'max');
      if (value === undefined) {
        if (get('type') || get('end')) errors[key('')] = DOSSIER_MESSAGES.required;
        continue;
      }
      const mode = get('type') ?? 'on';
      if (!(DATE_FILTER_TYPES as readonly string[]).includes(mode)) {
        errors[key('type')] = LIST_FILTER_MESSAGES.invalidValue;
        continue;
      }
      const from = toYmd(value);
      if (!from) {
        errors[key('')] = LIST_FILTER_MESSAGES.invalidDate;
        continue;
      }
      const day = ymdToIso(from);
      if (mode === 'on') add('equals', day);
      else if (mode === 'after') add('date_gt', day);
      else if (mode === 'before') add('date_lt', day);
      else {
        const endText = get('end');
        const to = endText ? toYmd(endText) : null;
        if (!to) errors[key('end')] = endText ? LIST_FILTER_MESSAGES.invalidDate : DOSSIER_MESSAGES.required;
        else add('date_between', `${day},${ymdToIso(to)}`);
      }
      continue;
    }

    unsupported('type', 'end');
    if (column.numeric || column.type === 'calc') {
      for (const [suffix, operator] of [
        ['min', 'number_gte'],
        ['max', 'number_lte'],
      ] as const) {
        const text = get(suffix);
        if (text === undefined) continue;
        const n = parseListNumber(text);
        if (n === null) errors[key(suffix)] = LIST_FILTER_MESSAGES.invalidNumber;
        else add(operator, n);
      }
      if (value !== undefined) {
        // an autoIncrement may be typed with its prefix
        const n = parseListNumber(column.type === 'autoIncrement' ? value.replace(/^\D+/, '') : value);
        if (n === null) errors[key('')] = LIST_FILTER_MESSAGES.invalidNumber;
        else {
          add('number_equals', n);
          if (present.length === 1 && column.kind === 'field') equalities.push(itemId);
        }
      }
      continue;
    }

    unsupported('min', 'max');
    if (value === undefined) continue;
    if (holdsIds(column.type)) {
      if (value.toUpperCase() === 'EMPTY' && column.kind === 'field') {
        add('equals', 'EMPTY');
        continue;
      }
      const ids = parseIdList(value);
      if (!ids) errors[key('')] = LIST_FILTER_MESSAGES.invalidValue;
      else {
        add('in', ids);
        const single = ids.length === 1 && !column.multiple && present.length === 1;
        if (single && column.kind === 'field') equalities.push(itemId);
      }
      continue;
    }
    if (value.length > 255) {
      errors[key('')] = LIST_FILTER_MESSAGES.invalidValue;
      continue;
    }
    if (column.type === 'time') add('string_exact_equals', value);
    else add('string_like_equals', value);
  }

  const combinators: Combinator[] =
    fields.length || links.length ? [{ combine: 'AND', fields, links, combinators: [] }] : [];
  return { combinators, errors, equalities };
}

/**
 * The list parameters of conditions made by listFiltersToQuery (the reverse direction, for a client
 * that shows a query as list filters). Conditions of other shapes have no parameter and are left out.
 */
export function queryToListFilters(
  combinators: Combinator[],
  columns: ReadonlyMap<number, ListFilterColumn>,
): Record<string, string> {
  const params: Record<string, string> = {};
  const byTarget = new Map<string, ListFilterColumn>();
  for (const c of columns.values())
    byTarget.set(c.kind === 'field' ? `f${c.fieldId}` : c.kind === 'data' ? `d${c.key}` : `l${c.linkId}`, c);
  for (const combinator of combinators) {
    if (combinator.combine !== 'AND') continue;
    for (const f of combinator.fields) {
      if (f.id === 'summary') {
        params.summary = String(f.value);
        continue;
      }
      const column = byTarget.get(typeof f.id === 'number' ? `f${f.id}` : `d${f.id}`);
      if (!column) continue;
      const id = String(column.itemId);
      const value = f.value;
      if (f.type === 'equals') params[id] = String(value);
      else if (f.type === 'date_gt') Object.assign(params, { [id]: value, [`${id}_type`]: 'after' });
      else if (f.type === 'date_lt') Object.assign(params, { [id]: value, [`${id}_type`]: 'before' });
      else if (f.type === 'date_between') {
        const [from, to] = (Array.isArray(value) ? value : String(value).split(',')).map(String);
        Object.assign(params, { [id]: from, [`${id}_type`]: 'between', [`${id}_end`]: to });
      } else if (f.type === 'number_gte') params[`${id}_min`] = String(value);
      else if (f.type === 'number_lte') params[`${id}_max`] = String(value);
      else if (f.type === 'in' && Array.isArray(value)) params[id] = value.join(',');
      else if (['number_equals', 'string_like_equals', 'string_exact_equals'].includes(f.type))
        params[id] = String(value);
    }
    for (const l of combinator.links) {
      const column = byTarget.get(`l${l.id}`);
      const ids = l.combinators[0]?.fields[0];
      if (column && ids?.id === 'id' && Array.isArray(ids.value))
        params[String(column.itemId)] = ids.value.join(',');
    }
  }
  return params;
}
