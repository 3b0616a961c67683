import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { flag, idValueSchema, inValues, labelIds, normaliseIds, optionalIdSetting } from './shared';
import type { FieldType } from './types';

export const LIST_MESSAGES = {
  invalid: 'Choose a valid option',
  tooMany: 'Choose only one option',
  unknown: (id: number) => `Unknown list option ${id}`,
} as const;

export const listSettingsSchema = z.object({
  multiple: flag(),
  fast_switch: flag(),
  checkbox_view: flag(),
  checkbox_view_horizontal: flag(),
  default_list_option: optionalIdSetting,
});
export type ListSettings = z.output<typeof listSettingsSchema>;

/** Stored value: an option id, or a list of ids when multiple. */
export const listField: FieldType<typeof listSettingsSchema, number | number[]> = {
  type: 'list',
  settingsSchema: listSettingsSchema,
  serverComputed: false,
  refersTo: 'options',
  source: inValues,
  // The setting's option, else the option marked default.
  defaultValue(settings, ctx) {
    const id = settings.default_list_option ?? ctx?.options?.find((o) => o.default)?.id ?? null;
    return id === null ? null : settings.multiple ? [id] : id;
  },
  valueSchema: (settings) => idValueSchema(settings.multiple),
  normalise: (raw, settings, ctx) => normaliseIds(raw, settings.multiple, LIST_MESSAGES, ctx?.options),
  operators: OPERATORS_BY_FIELD_TYPE.list,
  aggregations: ['unique', 'count'],
  sortable: () => true,
  format: (value, _settings, _locale, ctx) => labelIds(value, ctx?.options),
  sqlCast: () => 'jsonb',
};
