import {
  type Condition,
  type DisplayItem,
  type DisplayPosition,
  DOSSIER_MESSAGES,
  displayItemRows,
  getFieldType,
  isFieldTypeName,
  isServerComputed,
  itemRules,
  missingRequired,
  parseConditions,
} from '@dossierbase/core';
import { idsOf, itemFieldType, itemSettings } from '../../fields/helpers';
import type { DossierValues } from './dossier-api';

// Pure rules of the dossier form (no React): which items show, which are required, what is sent.
// The rules themselves live in core, shared with the server's checks on save.

export const SHOW_VIEWS = ['show', 'show/edit'];
export const EDIT_VIEWS = ['edit', 'show/edit'];

export type FormMode = 'show' | 'edit';

export const itemKey = (item: Pick<DisplayItem, 'id'>) => String(item.id);

/** Can the user change this item in edit mode (an edit view, a field whose value the client sends). */
export function isEditable(item: DisplayItem): boolean {
  const type = itemFieldType(item);
  return EDIT_VIEWS.includes(item.view) && type !== null && !isServerComputed(type);
}

/** Items of a mode: show mode shows show and show/edit; edit mode adds edit, keeps show read-only. */
export function itemsForMode(items: readonly DisplayItem[], mode: FormMode): DisplayItem[] {
  return items.filter((item) => {
    if (mode === 'show') return SHOW_VIEWS.includes(item.view);
    if (!['edit', 'show', 'show/edit'].includes(item.view)) return false;
    // autoIncrement is not shown in edit mode (spec doc 2 section 5)
    return itemFieldType(item) !== 'autoIncrement';
  });
}

/** Hidden and required items for the current values, as the server decides them (core itemRules). */
export function formRules(
  items: readonly DisplayItem[],
  conditions: readonly Condition[],
  values: DossierValues,
) {
  return itemRules(items.map(displayItemRows), conditions, values);
}

/** 'This is a required field' for each shown, editable, required item without a value (core missingRequired). */
export function requiredErrors(
  items: readonly DisplayItem[],
  conditions: readonly Condition[],
  values: DossierValues,
): Record<string, string> {
  const editable = items.filter((item) => EDIT_VIEWS.includes(item.view)).map(displayItemRows);
  const missing = missingRequired(editable, conditions, values);
  return Object.fromEntries(missing.map((key) => [key, DOSSIER_MESSAGES.required]));
}

/** A value as the server takes it: links as a list of dossier ids, the rest as the field keeps it. */
export function wireValue(item: DisplayItem, value: unknown): unknown {
  if (item.def_dossier_link) return idsOf(value);
  return value === undefined ? null : value;
}

/** The values to send: the shown, editable items' values keyed by display item id. */
export function toPayload(
  items: readonly DisplayItem[],
  conditions: readonly Condition[],
  values: DossierValues,
): DossierValues {
  const { hidden } = formRules(items, conditions, values);
  const payload: DossierValues = {};
  for (const item of items) {
    const key = itemKey(item);
    if (!isEditable(item) || hidden.has(key)) continue;
    payload[key] = wireValue(item, values[key]);
  }
  return payload;
}

/** Did the user change anything compared with the starting values. */
export function hasChanges(
  items: readonly DisplayItem[],
  start: DossierValues,
  current: DossierValues,
): boolean {
  return items.some((item) => {
    if (!isEditable(item)) return false;
    const key = itemKey(item);
    return JSON.stringify(wireValue(item, start[key])) !== JSON.stringify(wireValue(item, current[key]));
  });
}

/** The first item (in layout order) that has an error. */
export function firstErrorItem(items: readonly DisplayItem[], errors: Record<string, string>) {
  return [...items]
    .sort((a, b) => a.rank - b.rank || a.col - b.col || a.id - b.id)
    .find((item) => errors[itemKey(item)]);
}

export interface DossierTab {
  id: number;
  /** main_content or tab; positions read from the items alone are 'tab' except the first */
  type: DisplayPosition['type'];
  name: string | null;
}

/**
 * The tabs of a dossier page: the configured main content and tab positions (not hidden, by rank),
 * or, when the caller may not read the positions, the positions the items name in the server's
 * order (position rank): the first is the main content.
 */
export function detailTabs(
  positions: readonly DisplayPosition[] | null,
  items: readonly DisplayItem[],
  nameOf: (position: DisplayPosition) => string,
): DossierTab[] {
  if (positions) {
    const main = positions.filter((p) => p.type === 'main_content' && !p.hide);
    const tabs = positions.filter((p) => p.type === 'tab' && !p.hide);
    return [...main, ...tabs]
      .sort((a, b) =>
        a.type === b.type ? a.rank - b.rank || a.id - b.id : a.type === 'main_content' ? -1 : 1,
      )
      .map((p) => ({ id: p.id, type: p.type, name: nameOf(p) }));
  }
  const ids: number[] = [];
  for (const item of items)
    if (item.display_position_id !== null && !ids.includes(item.display_position_id))
      ids.push(item.display_position_id);
  return ids.map((id, index) => ({ id, type: index === 0 ? 'main_content' : 'tab', name: null }));
}

/** Positions of one type (meta, footer) that are not hidden. */
export const positionsOfType = (
  positions: readonly DisplayPosition[] | null,
  type: DisplayPosition['type'],
) => (positions ?? []).filter((p) => p.type === type && !p.hide).sort((a, b) => a.rank - b.rank);

/**
 * The values a new dossier starts with: each type's default (today, the default list option, the
 * current user) with the item's settings.
 */
export function initialValues(
  items: readonly DisplayItem[],
  options: ReadonlyMap<number, readonly { id: number; default?: boolean }[]>,
  currentUserId: number | undefined,
  now: Date = new Date(),
): DossierValues {
  const values: DossierValues = {};
  for (const item of items) {
    const field = item.def_dossier_def_field?.def_field;
    if (!field || !isEditable(item) || !isFieldTypeName(field.type)) continue;
    const value = getFieldType(field.type).defaultValue(itemSettings(item), {
      now,
      currentUserId,
      options: options.get(field.id) ?? [],
    });
    if (value !== null) values[itemKey(item)] = value;
  }
  return values;
}

// ---------- entity settings the dossier screens read

export interface EntitySettings {
  detailLayout: 'default' | 'vertical';
  addContinue: boolean;
  layoutSidebar: boolean;
  conditions: Condition[];
}

export const NO_SETTINGS: EntitySettings = {
  detailLayout: 'default',
  addContinue: false,
  layoutSidebar: false,
  conditions: [],
};

export function readSettings(raw: Record<string, unknown> | undefined): EntitySettings {
  if (!raw) return NO_SETTINGS;
  return {
    detailLayout: raw.detail_layout === 'vertical' ? 'vertical' : 'default',
    addContinue: raw.add_continue === true,
    layoutSidebar: raw.layout_sidebar === true,
    conditions: parseConditions(raw.conditions),
  };
}

// ---------- the mass update page's form (multi-update mode, spec doc 2 section 5)

/** An item of the form in multi-update mode: never obligatory. */
export function massUpdateItem(item: DisplayItem): DisplayItem {
  return {
    ...item,
    def_dossier_def_field: item.def_dossier_def_field
      ? { ...item.def_dossier_def_field, obligatory: false }
      : item.def_dossier_def_field,
    def_dossier_link: item.def_dossier_link
      ? { ...item.def_dossier_link, obligatory: false }
      : item.def_dossier_link,
  };
}

const isEmptyValue = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The filled-in values as the call takes them. */
export function massUpdateValues(items: readonly DisplayItem[], values: DossierValues): DossierValues {
  const out: DossierValues = {};
  for (const item of items) {
    const value = wireValue(item, values[String(item.id)]);
    if (!isEmptyValue(value)) out[String(item.id)] = value;
  }
  return out;
}
