import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, idSchema, inValues, isEmpty, noDefault, ok } from './shared';
import type { FieldType } from './types';

// The server hands out the numbers; the field is not shown in edit mode.
export const autoIncrementSettingsSchema = z.object({
  prefix: z.string().max(50).default(''),
});
export type AutoIncrementSettings = z.output<typeof autoIncrementSettingsSchema>;

export const AUTO_INCREMENT_MESSAGE = 'Enter a whole number above 0';

export const autoIncrementField: FieldType<typeof autoIncrementSettingsSchema, number> = {
  type: 'autoIncrement',
  settingsSchema: autoIncrementSettingsSchema,
  serverComputed: true,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => idSchema.nullable(),
  normalise(raw, settings) {
    if (isEmpty(raw)) return ok(null);
    let v = raw;
    if (typeof v === 'string') {
      const text = v.trim();
      // "INV-12" with prefix "INV-" is 12
      const digits =
        settings.prefix && text.startsWith(settings.prefix) ? text.slice(settings.prefix.length) : text;
      v = /^\d{1,16}$/.test(digits) ? Number(digits) : Number.NaN;
    }
    return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? ok(v) : fail(AUTO_INCREMENT_MESSAGE);
  },
  operators: OPERATORS_BY_FIELD_TYPE.autoIncrement,
  aggregations: ['count'],
  sortable: () => true,
  format: (value, settings) => (typeof value === 'number' ? `${settings.prefix}${value}` : ''),
  sqlCast: () => 'bigint',
};
