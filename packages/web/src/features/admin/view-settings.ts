import { type DefDossierDefField, valueRefsOf } from '@dossierbase/core';

type Settings = Record<string, unknown>;

/** Which data fields a view setting offers: by base field type, or any. */
export type Source = 'date' | 'list' | 'amount' | 'user' | 'any' | 'link' | 'view' | 'calendar_default';

export const VIEW_SETTING_GROUPS: { group: string; settings: [string, Source][] }[] = [
  {
    group: 'calendar',
    settings: [
      ['calendar_default', 'calendar_default'],
      ['calendar_date_field', 'date'],
      ['calendar_date_list_field', 'date'],
      ['calendar_date_list_field_end', 'date'],
      ['calendar_edit_start', 'date'],
      ['calendar_edit_end', 'date'],
      ['calendar_custom_view', 'view'],
    ],
  },
  {
    group: 'gantt',
    settings: [
      ['gantt_task_link', 'link'],
      ['gantt_proj_start_date', 'date'],
      ['gantt_proj_end_date', 'date'],
      ['gantt_proj_progress', 'amount'],
      ['gantt_task_progress', 'amount'],
      ['gantt_task_update_start_date', 'date'],
      ['gantt_task_update_end_date', 'date'],
      ['gantt_proj_update_start_date', 'date'],
      ['gantt_proj_update_end_date', 'date'],
      ['gantt_proj_tags', 'list'],
      ['gantt_task_tags', 'list'],
      ['gantt_task_resource', 'user'],
    ],
  },
  {
    group: 'kanban',
    settings: [
      ['kanban_search_field', 'any'],
      ['kanban_list_field', 'list'],
      ['kanban_custom_view', 'view'],
    ],
  },
  {
    group: 'timeline',
    settings: [
      ['timeline_field', 'date'],
      ['timeline_desc_field', 'any'],
      ['timeline_custom_view', 'view'],
    ],
  },
];

export const VIEW_SETTING_KEYS = VIEW_SETTING_GROUPS.flatMap((group) => group.settings.map(([key]) => key));

export const ADDRESS_ITEM_KEYS = [
  'street_ddi',
  'zipcode_ddi',
  'housenr_ddi',
  'housenrsuf_ddi',
  'city_ddi',
  'municipality_ddi',
  'long_ddi',
  'lat_ddi',
] as const;

const DATE_TYPES = ['date', 'systemdate'];

/** Data fields a setting may point to, by the type of their base field. */
export function fieldsFor(source: Source, fields: readonly DefDossierDefField[]): DefDossierDefField[] {
  const type = (field: DefDossierDefField) => field.def_field?.type ?? '';
  switch (source) {
    case 'date':
      return fields.filter((field) => DATE_TYPES.includes(type(field)));
    case 'list':
      return fields.filter((field) => type(field) === 'list');
    case 'amount':
      return fields.filter((field) => ['amount', 'calc'].includes(type(field)));
    case 'user':
      return fields.filter((field) => valueRefsOf(type(field)) === 'users');
    default:
      return [...fields];
  }
}

/** The settings of the views and address tabs as kept in the form: values are strings or null. */
export function readViewSettings(settings: Settings): Record<string, string | null> {
  return Object.fromEntries(
    VIEW_SETTING_KEYS.map((key) => {
      const value = settings[key];
      return [key, value === undefined || value === null || value === '' ? null : String(value)];
    }),
  );
}

/** Back to the stored form: ids as numbers, names and the calendar default as text. */
export function writeViewSettings(values: Record<string, string | null>): Settings {
  const sources = new Map(VIEW_SETTING_GROUPS.flatMap((group) => group.settings));
  return Object.fromEntries(
    VIEW_SETTING_KEYS.map((key) => {
      const value = values[key] ?? null;
      const source = sources.get(key);
      if (value === null || source === 'view' || source === 'calendar_default') return [key, value];
      const number = Number(value);
      return [key, Number.isFinite(number) ? number : value];
    }),
  );
}

export interface AddressLookup {
  address_lookup: boolean;
  items: Record<string, string | null>;
}

export function readAddressLookup(settings: Settings): AddressLookup {
  const stored = (settings.address_lookup_settings ?? {}) as Settings;
  return {
    address_lookup: stored.address_lookup === true,
    items: Object.fromEntries(
      ADDRESS_ITEM_KEYS.map((key) => [
        key,
        stored[key] == null || stored[key] === '' ? null : String(stored[key]),
      ]),
    ),
  };
}

export function writeAddressLookup(value: AddressLookup): Settings {
  return {
    address_lookup: value.address_lookup,
    ...Object.fromEntries(
      ADDRESS_ITEM_KEYS.map((key) => [key, value.items[key] ? Number(value.items[key]) : null]),
    ),
  };
}
