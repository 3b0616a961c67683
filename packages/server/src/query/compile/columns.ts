import {
  type FieldTypeName,
  fieldSettingsOf,
  getFieldType,
  isFieldTypeName,
  isItemSortable,
  type ListFilterColumn,
  type SqlCast,
  type SystemField,
} from '@dossierbase/core';
import type { LinkRow, VisibleItem } from '../../policy/display-item';
import { valueExpression } from '../field-expression';
import { summaryExpression } from '../visible-summary';

// The columns a query can address: an entity's fields (by display item, as the user may see them),
// the dossier's own columns and its links. Filters, sorts and aggregations all start from one.

/**
 * The dossier's own columns: what a display item shows through settings.dossier_data or a system
 * field (systemdate, systemuser) through its dossier_data setting, and the sort names.
 */
export const DOSSIER_DATA: Record<string, { column: string; type: FieldTypeName; cast: SqlCast }> = {
  id: { column: 'content_dossier.id', type: 'autoIncrement', cast: 'bigint' },
  dossier_id: { column: 'content_dossier.id', type: 'autoIncrement', cast: 'bigint' },
  summary: { column: 'content_dossier.summary', type: 'text', cast: 'text' },
  created_at: { column: 'content_dossier.created_at', type: 'systemdate', cast: 'timestamptz' },
  modified_at: { column: 'content_dossier.modified_at', type: 'systemdate', cast: 'timestamptz' },
  created_by: { column: 'content_dossier.created_by', type: 'systemuser', cast: 'bigint' },
  modified_by: { column: 'content_dossier.modified_by', type: 'systemuser', cast: 'bigint' },
};
export const SORT_NAMES = ['id', 'summary', 'created_at', 'modified_at'];

/** One column a filter, sort or aggregation can address. */
export type Column = (
  | {
      kind: 'field';
      itemId: number;
      dataFieldId: number;
      type: FieldTypeName;
      settings: Record<string, unknown>;
      cast: SqlCast;
      /** the SQL text of the value (same text as its expression index) */
      expression: string;
    }
  | {
      /** one of the dossier's own columns (DOSSIER_DATA) */
      kind: 'data';
      itemId: number | null;
      key: string;
      type: FieldTypeName;
      cast: SqlCast;
      expression: string;
    }
  | { kind: 'link'; itemId: number; link: LinkRow; multiple: boolean }
) & { sortable: boolean };

export function dataColumn(itemId: number, key: string, summaryKey: string | undefined): Column {
  const data = DOSSIER_DATA[key];
  const expression = key === 'summary' ? summaryExpression('content_dossier', summaryKey) : data.column;
  return { kind: 'data', itemId, key, type: data.type, cast: data.cast, expression, sortable: true };
}

/**
 * The column behind a visible display item, null for items that hold no value (buttons, text).
 * `summaryKey`: the reader's summary key of the item's entity (policy/summary.ts), for the summary.
 * Settings are the item's merged settings (core fieldSettingsOf), as the dossier form reads them.
 */
export function columnOf(visible: VisibleItem, summaryKey?: string): Column | null {
  const { item, dataField, field, link } = visible;
  const sortable = isItemSortable(visible);
  if (link) {
    const multiple = fieldSettingsOf(visible).multiple === true;
    return { kind: 'link', itemId: item.id, link, multiple, sortable };
  }
  if (dataField && field && isFieldTypeName(field.type)) {
    const type = field.type;
    const settings = fieldSettingsOf(visible);
    const source = getFieldType(type).source(settings);
    // a system field shows one of the dossier's own columns, as a dossier-data item does
    if (source.from === 'column') return dataColumn(item.id, source.column, summaryKey);
    const cast = getFieldType(type).sqlCast(settings);
    const expression = valueExpression(dataField.id, cast);
    if (!expression) return null;
    return {
      kind: 'field',
      itemId: item.id,
      dataFieldId: dataField.id,
      type,
      settings,
      cast,
      expression,
      sortable,
    };
  }
  const key = item.settings?.dossier_data;
  if (typeof key === 'string' && Object.hasOwn(DOSSIER_DATA, key))
    return dataColumn(item.id, key, summaryKey);
  return null;
}

const SYSTEM_KEYS: Record<string, SystemField> = {
  id: 'id',
  dossier_id: 'id',
  summary: 'summary',
  created_at: 'created_at',
  modified_at: 'modified_at',
  created_by: 'created_by',
  modified_by: 'modified_by',
};

/** What the list parameters' translation (core listFiltersToQuery) needs to know of a column. */
export function filterColumnOf(column: Column): ListFilterColumn | null {
  if (column.itemId === null) return null;
  const base = { itemId: column.itemId };
  if (column.kind === 'link')
    return {
      ...base,
      kind: 'link',
      linkId: column.link.id,
      type: 'link',
      numeric: false,
      multiple: column.multiple,
    };
  // user ids are bigint too, but a user filter names users
  const numeric = (column.cast === 'numeric' || column.cast === 'bigint') && column.type !== 'systemuser';
  if (column.kind === 'data')
    return {
      ...base,
      kind: 'data',
      key: SYSTEM_KEYS[column.key],
      type: column.type,
      numeric,
      multiple: false,
    };
  return {
    ...base,
    kind: 'field',
    fieldId: column.dataFieldId,
    type: column.type,
    numeric,
    multiple: column.settings.multiple === true,
  };
}
