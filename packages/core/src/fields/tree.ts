import { z } from 'zod';
import { LIST_MESSAGES } from './list';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { flag, idValueSchema, inValues, labelIds, noDefault, normaliseIds } from './shared';
import type { FieldType } from './types';

// A hierarchical list: its values are option ids like a list's (the hierarchy lives in the options).
export const treeSettingsSchema = z.object({
  multiple: flag(),
});
export type TreeSettings = z.output<typeof treeSettingsSchema>;

export const treeField: FieldType<typeof treeSettingsSchema, number | number[]> = {
  type: 'tree',
  settingsSchema: treeSettingsSchema,
  serverComputed: false,
  refersTo: 'options',
  source: inValues,
  defaultValue: noDefault,
  valueSchema: (settings) => idValueSchema(settings.multiple),
  normalise: (raw, settings, ctx) => normaliseIds(raw, settings.multiple, LIST_MESSAGES, ctx?.options),
  operators: OPERATORS_BY_FIELD_TYPE.tree,
  aggregations: ['unique', 'count'],
  sortable: () => true,
  format: (value, _settings, _locale, ctx) => labelIds(value, ctx?.options),
  sqlCast: () => 'jsonb',
};
