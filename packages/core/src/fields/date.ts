import { z } from 'zod';
import {
  compareYmd,
  formatInstant,
  formatYmd,
  parseDateOnly,
  parseDateTime,
  todayYmd,
  toYmd,
  weekdayMondayZero,
  type Ymd,
  ymdToIso,
} from './dates';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { ctxNow, fail, flag, inValues, isEmpty, ok } from './shared';
import type { FieldType } from './types';

export const DATE_RESTRICTIONS = ['none', 'before_and_eq_current_date', 'after_and_eq_current_date'] as const;

export const DATE_MESSAGES = {
  date: 'Enter a valid date (DD-MM-YYYY)',
  dateTime: 'Enter a valid date and time (DD-MM-YYYY HH:mm)',
  notAfterToday: 'The date may not be after today',
  notBeforeToday: 'The date may not be before today',
  weekday: 'This day of the week cannot be chosen',
} as const;

export const deadlineReminderSchema = z.object({
  number: z.number().int().min(1).max(31).default(1),
  type: z.enum(['day', 'week', 'month', 'year']).default('day'),
  when: z.enum(['before', 'after']).default('before'),
  color: z.string().max(30).default(''),
});
export type DeadlineReminder = z.output<typeof deadlineReminderSchema>;

/** A new reminder starts as 1 day with no colour. */
export const newDeadlineReminder = (): DeadlineReminder => deadlineReminderSchema.parse({});

export const dateSettingsSchema = z.object({
  withtime: flag(),
  current_time_as_default: flag(),
  default_current_date: flag(),
  show_slider: flag(),
  show_ago: flag(),
  restriction: z.enum(DATE_RESTRICTIONS).default('none'),
  // Weekdays that cannot be chosen, 0 = Monday.
  restrict_days: z.array(z.number().int().min(0).max(6)).max(7).default([]),
  deadline: z.array(deadlineReminderSchema).max(20).default([]),
});
export type DateSettings = z.output<typeof dateSettingsSchema>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Stored form: 'YYYY-MM-DD' without time, a UTC ISO instant with time. */
export const dateField: FieldType<typeof dateSettingsSchema, string> = {
  type: 'date',
  settingsSchema: dateSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  // Today (default_current_date; midnight with withtime), or now to the minute (current_time_as_default).
  defaultValue(settings, ctx) {
    const now = ctxNow(ctx);
    if (settings.withtime && settings.current_time_as_default)
      return new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
    if (!settings.default_current_date) return null;
    const today = ymdToIso(todayYmd(now));
    return settings.withtime ? (parseDateTime(`${today}T00:00`)?.toISOString() ?? null) : today;
  },
  valueSchema: (settings) =>
    (settings.withtime
      ? z
          .string()
          .regex(ISO_INSTANT)
          .refine((v) => parseDateTime(v) !== null)
      : z
          .string()
          .regex(ISO_DATE)
          .refine((v) => parseDateOnly(v) !== null)
    ).nullable(),
  normalise(raw, settings, ctx) {
    if (isEmpty(raw)) return ok(null);
    const text =
      raw instanceof Date && !Number.isNaN(raw.getTime())
        ? raw.toISOString()
        : typeof raw === 'string'
          ? raw.trim()
          : '';
    let day: Ymd | null;
    let stored: string | null = null;
    if (settings.withtime) {
      const dateOnly = parseDateOnly(text);
      // A bare date with withtime is midnight, Amsterdam time.
      const instant = dateOnly ? parseDateTime(`${ymdToIso(dateOnly)}T00:00`) : parseDateTime(text);
      if (!instant) return fail(DATE_MESSAGES.dateTime);
      day = todayYmd(instant);
      stored = instant.toISOString();
    } else {
      // A date-time (e.g. a browser's ISO string of local midnight) counts as its Amsterdam day.
      day = toYmd(text);
      if (!day) return fail(DATE_MESSAGES.date);
      stored = ymdToIso(day);
    }
    const today = todayYmd(ctxNow(ctx));
    if (settings.restriction === 'before_and_eq_current_date' && compareYmd(day, today) > 0)
      return fail(DATE_MESSAGES.notAfterToday);
    if (settings.restriction === 'after_and_eq_current_date' && compareYmd(day, today) < 0)
      return fail(DATE_MESSAGES.notBeforeToday);
    if (settings.restrict_days.includes(weekdayMondayZero(day))) return fail(DATE_MESSAGES.weekday);
    return ok(stored);
  },
  operators: OPERATORS_BY_FIELD_TYPE.date,
  aggregations: ['min', 'max', 'count'],
  sortable: () => true,
  format(value, settings) {
    if (!value) return '';
    const dateOnly = parseDateOnly(value);
    if (dateOnly) return formatYmd(dateOnly);
    const instant = parseDateTime(value);
    if (!instant) return value;
    return settings.withtime ? formatInstant(instant) : formatYmd(todayYmd(instant));
  },
  sqlCast: (settings) => (settings.withtime ? 'timestamptz' : 'date'),
};
