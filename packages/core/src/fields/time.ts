import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, flag, inValues, isEmpty, noDefault, ok } from './shared';
import type { FieldType } from './types';

export const TIME_MESSAGES = {
  format: 'Enter a valid time (HH:mm)',
  hours: (max: number) => `Hours must be between 0 and ${max}`,
  minutes: 'Minutes must be between 0 and 59',
} as const;

/** With disable_limit a time is a duration: hours may pass 23 (up to this). */
export const TIME_MAX_HOURS = 9999;

export const timeSettingsSchema = z.object({
  disable_limit: flag(),
});
export type TimeSettings = z.output<typeof timeSettingsSchema>;

export const timeField: FieldType<typeof timeSettingsSchema, string> = {
  type: 'time',
  settingsSchema: timeSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: (settings) =>
    z
      .string()
      .regex(settings.disable_limit ? /^\d{2,4}:[0-5]\d$/ : /^([01]\d|2[0-3]):[0-5]\d$/)
      .nullable(),
  normalise(raw, settings) {
    if (isEmpty(raw)) return ok(null);
    const m = typeof raw === 'string' ? /^(\d{1,4}):(\d{1,2})$/.exec(raw.trim()) : null;
    if (!m) return fail(TIME_MESSAGES.format);
    const hours = Number(m[1]);
    const minutes = Number(m[2]);
    const maxHours = settings.disable_limit ? TIME_MAX_HOURS : 23;
    if (hours > maxHours) return fail(TIME_MESSAGES.hours(maxHours));
    if (minutes > 59) return fail(TIME_MESSAGES.minutes);
    return ok(`${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`);
  },
  operators: OPERATORS_BY_FIELD_TYPE.time,
  aggregations: ['sum', 'avg', 'min', 'max', 'count'],
  sortable: () => true,
  format: (value) => value ?? '',
  // '25:30'::interval works where ::time would not (durations with disable_limit).
  sqlCast: () => 'interval',
};
