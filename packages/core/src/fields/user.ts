import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { flag, idValueSchema, inValues, labelIds, normaliseIds } from './shared';
import type { FieldType } from './types';

export const USER_MESSAGES = {
  invalid: 'Choose a valid user',
  tooMany: 'Choose only one user',
  unknown: (id: number) => `Unknown user ${id}`,
} as const;

export const userSettingsSchema = z.object({
  multiple: flag(),
  default_current_user: flag(),
  display_name_style: z.enum(['default', 'avatar', 'both']).default('default'),
});
export type UserSettings = z.output<typeof userSettingsSchema>;

/** Stored value: a user id, or a list of ids when multiple. */
export const userField: FieldType<typeof userSettingsSchema, number | number[]> = {
  type: 'user',
  settingsSchema: userSettingsSchema,
  serverComputed: false,
  refersTo: 'users',
  source: inValues,
  // default_current_user: the signed-in user.
  defaultValue(settings, ctx) {
    const id = settings.default_current_user ? ctx?.currentUserId : undefined;
    return id ? (settings.multiple ? [id] : id) : null;
  },
  valueSchema: (settings) => idValueSchema(settings.multiple),
  normalise: (raw, settings, ctx) => normaliseIds(raw, settings.multiple, USER_MESSAGES, ctx?.users),
  operators: OPERATORS_BY_FIELD_TYPE.user,
  aggregations: ['count'],
  sortable: () => true,
  format: (value, _settings, _locale, ctx) => labelIds(value, ctx?.users),
  sqlCast: () => 'jsonb',
};
