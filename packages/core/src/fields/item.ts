import type { DisplayItem, DOSSIER_DATA_KEYS } from '../api/entity';
import { getFieldType, isFieldTypeName } from './registry';
import { parseFieldSettings } from './settings';
import type { DossierColumn, FieldTypeName } from './types';

// The field behind a display item, on either side: the server reads the rows (its VisibleItem has
// this shape), the browser gets the item with its rows nested (displayItemRows flattens it).

type Settings = Readonly<Record<string, unknown>>;

/** A display item and the rows behind it. */
export interface ItemRows {
  item: { id: number; settings: Settings };
  /** the data field (def_dossier_def_field) of a field item */
  dataField: { obligatory: boolean; settings: Settings } | null;
  /** the base field (def_field) of the data field */
  field: { type: string; settings: Settings } | null;
  /** the link (def_dossier_link) of a link item */
  link: { obligatory: boolean; settings: Settings } | null;
}

/** The rows of a display item as the API sends it. */
export function displayItemRows(item: DisplayItem): ItemRows {
  const dataField = item.def_dossier_def_field;
  return { item, dataField, field: dataField?.def_field ?? null, link: item.def_dossier_link };
}

/** The field type of an item: its base field's type, 'link' for a link, null for dossier data and blocks. */
export function fieldTypeOf(rows: ItemRows): string | null {
  if (rows.link) return 'link';
  return rows.dataField ? (rows.field?.type ?? null) : null;
}

/**
 * The settings an item's field works with: the base field's, overridden by the data field's and then
 * the display item's (a link item: the link's, then the item's); parsed as parseFieldSettings does.
 */
export function fieldSettingsOf(rows: ItemRows): Record<string, unknown> {
  const type = fieldTypeOf(rows);
  const levels = rows.link
    ? [rows.link.settings, rows.item.settings]
    : [rows.field?.settings, rows.dataField?.settings, rows.item.settings];
  const known = parsedSettings.get(rows);
  if (known && known.type === type && known.levels.every((level, i) => level === levels[i]))
    return known.settings;
  const settings = type && (rows.link || rows.dataField) ? parseFieldSettings(type, ...levels) : {};
  parsedSettings.set(rows, { type, levels, settings });
  return settings;
}

/**
 * The settings of an item's rows as last parsed, by the rows object: the server's display items live
 * in its configuration cache and are asked for their settings on every list request and for every
 * value written. Kept while the rows object lives; parsed again when the field type or any settings
 * object behind them is replaced.
 */
const parsedSettings = new WeakMap<
  ItemRows,
  { type: string | null; levels: unknown[]; settings: Record<string, unknown> }
>();

/** The type whose display a dossier-data item (settings.dossier_data) uses for its value. */
export const DOSSIER_DATA_TYPES: Readonly<Record<(typeof DOSSIER_DATA_KEYS)[number], FieldTypeName>> = {
  summary: 'text',
  dossier_id: 'autoIncrement',
  created_at: 'systemdate',
  modified_at: 'systemdate',
  created_by: 'systemuser',
  modified_by: 'systemuser',
};

/** The type of an item's value: its field's type, or for dossier data the type it shows as; null for blocks. */
export function valueTypeOf(rows: ItemRows): string | null {
  const type = fieldTypeOf(rows);
  if (type) return type;
  const data = rows.item.settings.dossier_data;
  return typeof data === 'string' && Object.hasOwn(DOSSIER_DATA_TYPES, data)
    ? DOSSIER_DATA_TYPES[data as keyof typeof DOSSIER_DATA_TYPES]
    : null;
}

/**
 * Whether a list sorts on an item: dossier data always; a field or link when its type sorts it with
 * these settings (not textareas, files or multiple links) and it has a value to sort on.
 */
export function isItemSortable(rows: ItemRows): boolean {
  const type = fieldTypeOf(rows);
  if (type === null) return valueTypeOf(rows) !== null;
  if (!isFieldTypeName(type)) return false;
  const fieldType = getFieldType(type);
  const settings = fieldSettingsOf(rows);
  return fieldType.sortable(settings) && fieldType.source(settings).from !== 'none';
}

/** The dossier's own columns that system fields and dossier-data items show. */
export interface DossierColumns {
  created_at: Date | string;
  modified_at: Date | string;
  created_by: number | null;
  modified_by: number | null;
}

const ISO_UTC_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A point in time as the wire carries it (ISO 8601, UTC, milliseconds). Text already in that form
 * (the list statement formats its dates in SQL) is passed on without a round trip through Date.
 */
export function isoTime(value: Date | string): string {
  return typeof value === 'string' && ISO_UTC_MILLIS.test(value) ? value : new Date(value).toISOString();
}

/** The value of one of the dossier's own columns as an item carries it: dates as ISO text, users as ids. */
export function dossierColumnValue(dossier: DossierColumns, column: DossierColumn): string | number | null {
  if (column === 'created_by' || column === 'modified_by') return dossier[column] ?? null;
  return isoTime(dossier[column]);
}
