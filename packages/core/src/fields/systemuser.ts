import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { idSchema, labelIds, noDefault, normaliseIds } from './shared';
import type { FieldType } from './types';
import { USER_MESSAGES } from './user';

// created_by / modified_by of the dossier, set by the server.
export const systemuserSettingsSchema = z.object({
  dossier_data: z.enum(['created_by', 'modified_by']).default('created_by'),
});
export type SystemuserSettings = z.output<typeof systemuserSettingsSchema>;

export const systemuserField: FieldType<typeof systemuserSettingsSchema, number> = {
  type: 'systemuser',
  settingsSchema: systemuserSettingsSchema,
  serverComputed: true,
  refersTo: 'users',
  source: (settings) => ({ from: 'column', column: settings.dossier_data }),
  defaultValue: noDefault,
  valueSchema: () => idSchema.nullable(),
  normalise: (raw, _settings, ctx) => normaliseIds(raw, false, USER_MESSAGES, ctx?.users),
  operators: OPERATORS_BY_FIELD_TYPE.systemuser,
  aggregations: ['count'],
  sortable: () => true,
  format: (value, _settings, _locale, ctx) => labelIds(value, ctx?.users),
  sqlCast: () => 'bigint',
};
