import { type DisplayItem, type DossierListBody, MAX_LIST_LIMIT, valueRefsOf } from '@dossierbase/core';
import { itemFieldType } from '../../../fields/helpers';
import { dateOf, numberOf } from './view-data';

// The hour registration view's week (spec doc 2 section 2: the embedded list's hourregistration
// view, with its module): the linked registrations of one week, summed per person and day. The
// entity's list view says what a registration is: its first date item is the day, its first amount,
// calc or time item the hours, its first user item the person (else whoever created it).

export const HOURS_PAGE_LIMIT = MAX_LIST_LIMIT;

export interface HourColumns {
  date: DisplayItem | null;
  hours: DisplayItem | null;
  person: DisplayItem | null;
}

export function hourColumns(items: readonly DisplayItem[]): HourColumns {
  const first = (test: (type: string) => boolean) =>
    items.find((item) => item.def_dossier_def_field && test(itemFieldType(item) ?? '')) ?? null;
  return {
    date: first((type) => type === 'date'),
    hours: first((type) => ['amount', 'calc', 'time'].includes(type)),
    person: first((type) => valueRefsOf(type) === 'users'),
  };
}

/** The Monday of the week of `day` (local time). */
export function weekStart(day: Date): Date {
  const monday = new Date(day.getFullYear(), day.getMonth(), day.getDate());
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  return monday;
}

export function addDays(day: Date, days: number): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() + days);
}

export const ymd = (day: Date) =>
  `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;

/** Hours of a value: a number, or a time 'HH:mm' as hours and minutes. */
export function hoursOf(value: unknown): number | null {
  if (typeof value === 'string' && /^\d{1,3}:\d{2}$/.test(value)) {
    const [h, m] = value.split(':').map(Number);
    return h + m / 60;
  }
  return numberOf(value);
}

export interface HourRow {
  /** a user id, or the creator's username when no user item is shown */
  key: string;
  /** user ids of the person item, for names */
  userId: number | null;
  name: string;
  /** hours per day of the week (Monday first) */
  days: number[];
  total: number;
}

/** The week's registrations summed per person and day; rows by name. */
export function hourRows(
  body: DossierListBody | undefined,
  columns: HourColumns,
  monday: Date,
  nameOf: (userId: number) => string,
): HourRow[] {
  if (!body || !columns.date || !columns.hours) return [];
  const rows = new Map<string, HourRow>();
  const first = ymd(monday);
  for (const dossier of body.results.dossiers) {
    const content = body.results.contents[String(dossier.id)] ?? {};
    const day = dateOf(content[String(columns.date.id)]);
    const hours = hoursOf(content[String(columns.hours.id)]);
    if (!day || hours === null) continue;
    if (ymd(weekStart(day)) !== first) continue;
    const index = (day.getDay() + 6) % 7;
    const person = columns.person ? content[String(columns.person.id)] : undefined;
    const userId = Number(Array.isArray(person) ? person[0] : person);
    const known = Number.isInteger(userId) && userId > 0;
    const key = known ? `u${userId}` : `c${dossier.created_by?.username ?? ''}`;
    const row = rows.get(key) ?? {
      key,
      userId: known ? userId : null,
      name: known ? nameOf(userId) : (dossier.created_by?.username ?? ''),
      days: [0, 0, 0, 0, 0, 0, 0],
      total: 0,
    };
    row.days[index] += hours;
    row.total += hours;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
}
