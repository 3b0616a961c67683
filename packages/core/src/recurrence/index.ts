import * as rruleModule from 'rrule';
import { z } from 'zod';

// Repeating dates of the multiple create modal (spec doc 2 sections 2, 4, 5 "Multiple create"):
// daily, weekly on chosen weekdays, monthly and yearly on a day or on an ordinal weekday (First to
// Last of a weekday, a weekday group Mon-Fri or a weekend day group Sat-Sun), every N, until a date
// or N times (at most 999). The web previews the dates and the server creates them from the same
// rule, so both read it here; rrule does the calendar arithmetic.

// rrule ships CommonJS for Node and ES modules for bundlers: the namespace serves both.
type RRuleModule = typeof import('rrule');
const rrule: RRuleModule =
  (rruleModule as unknown as { RRule?: unknown }).RRule !== undefined
    ? (rruleModule as unknown as RRuleModule)
    : (rruleModule as unknown as { default: RRuleModule }).default;

/** At most this many dates in one series (three digits). */
export const MAX_SERIES = 999;

export const SERIES_MESSAGES = {
  endOrStartDateFuture: 'The start and end date must lie within the dates the field allows',
  endDateOutOfRange: 'The end date must not be before the start date',
  tooMany: `A series has at most ${MAX_SERIES} dates`,
  none: 'The rule gives no dates',
  notADate: 'Choose a date field',
} as const;

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
/** Monday first, as the modal's toggles */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
/** First, Second, Third, Fourth, Last */
export const ORDINALS = [1, 2, 3, 4, -1] as const;
export const ORDINAL_DAYS = [...WEEKDAYS, 'weekday', 'weekendday'] as const;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isoDay = z
  .string()
  .regex(ISO_DAY)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));

export const recurrenceSchema = z.object({
  frequency: z.enum(FREQUENCIES),
  /** first date, YYYY-MM-DD */
  start: isoDay,
  /** time of day for a date field with time, HH:mm */
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .optional(),
  interval: z.number().int().min(1).max(MAX_SERIES).default(1),
  /** weekly: the weekdays */
  weekdays: z.array(z.enum(WEEKDAYS)).max(7).default([]),
  /** monthly and yearly: on a day of the month, or on an ordinal weekday */
  on: z.enum(['day', 'ordinal']).default('day'),
  /** monthly 1-31, yearly 1-30 (spec) */
  day: z.number().int().min(1).max(31).optional(),
  /** yearly: 1-12 */
  month: z.number().int().min(1).max(12).optional(),
  ordinal: z
    .number()
    .int()
    .refine((n) => (ORDINALS as readonly number[]).includes(n))
    .optional(),
  ordinalDay: z.enum(ORDINAL_DAYS).optional(),
  end: z.discriminatedUnion('type', [
    z.object({ type: z.literal('date'), date: isoDay }),
    z.object({ type: z.literal('count'), count: z.number().int().min(1).max(MAX_SERIES) }),
  ]),
});
export type Recurrence = z.infer<typeof recurrenceSchema>;
export type RecurrenceInput = z.input<typeof recurrenceSchema>;

const utcDay = (iso: string) => new Date(`${iso}T00:00:00Z`);
const isoOf = (date: Date) => date.toISOString().slice(0, 10);

function byWeekday(rule: Recurrence) {
  const { RRule } = rrule;
  const day = (code: (typeof WEEKDAYS)[number]) => RRule[code];
  if (rule.frequency === 'weekly') return rule.weekdays.length ? rule.weekdays.map(day) : undefined;
  if (rule.on !== 'ordinal' || rule.frequency === 'daily') return undefined;
  const which = rule.ordinalDay ?? 'MO';
  const ordinal = rule.ordinal ?? 1;
  if (which === 'weekday')
    return { days: ['MO', 'TU', 'WE', 'TH', 'FR'].map((d) => day(d as 'MO')), setpos: ordinal };
  if (which === 'weekendday') return { days: [day('SA'), day('SU')], setpos: ordinal };
  return [day(which).nth(ordinal)];
}

/**
 * The dates of a series, YYYY-MM-DD, at most MAX_SERIES + 1 (one more tells the caller the rule
 * gives too many).
 */
export function seriesDates(rule: Recurrence): string[] {
  const { RRule } = rrule;
  const freq = {
    daily: RRule.DAILY,
    weekly: RRule.WEEKLY,
    monthly: RRule.MONTHLY,
    yearly: RRule.YEARLY,
  }[rule.frequency];
  const start = utcDay(rule.start);
  const options: Partial<ConstructorParameters<typeof RRule>[0]> = {
    freq,
    interval: rule.interval,
    dtstart: start,
    wkst: RRule.MO,
  };
  const weekdays = byWeekday(rule);
  if (Array.isArray(weekdays)) options.byweekday = weekdays;
  else if (weekdays) {
    options.byweekday = weekdays.days;
    options.bysetpos = weekdays.setpos;
  }
  if ((rule.frequency === 'monthly' || rule.frequency === 'yearly') && rule.on === 'day')
    options.bymonthday = rule.day ?? start.getUTCDate();
  if (rule.frequency === 'yearly') options.bymonth = rule.month ?? start.getUTCMonth() + 1;
  if (rule.end.type === 'count') options.count = rule.end.count;
  else options.until = new Date(`${rule.end.date}T23:59:59Z`);
  const dates: string[] = [];
  new RRule(options).all((_date, i) => {
    if (i > MAX_SERIES) return false;
    dates.push(isoOf(_date));
    return true;
  });
  return dates;
}

/** The spec's checks of the modal's start and end dates; a message or null. */
export function seriesProblem(
  rule: Recurrence,
  restriction: string | undefined,
  today: string,
): string | null {
  const end = rule.end.type === 'date' ? rule.end.date : null;
  if (restriction === 'before_and_eq_current_date' && (rule.start > today || (end !== null && end > today)))
    return SERIES_MESSAGES.endOrStartDateFuture;
  if (restriction === 'after_and_eq_current_date' && rule.start < today)
    return SERIES_MESSAGES.endOrStartDateFuture;
  if (end !== null && end < rule.start) return SERIES_MESSAGES.endDateOutOfRange;
  return null;
}
