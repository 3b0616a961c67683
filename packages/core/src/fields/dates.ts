// Calendar helpers in the platform's time zone, on Intl only (core has no date library).

export const TIME_ZONE = 'Europe/Amsterdam';

export interface Ymd {
  year: number;
  month: number;
  day: number;
}

const zoned = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function partsOf(date: Date) {
  const parts: Record<string, number> = {};
  for (const p of zoned.formatToParts(date)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts;
}

// Amsterdam's offset from UTC per UTC hour: it only changes on the hour (at 01:00 UTC), so the offset
// of an hour holds for every instant in it. Intl's formatToParts is slow, and exports call this for
// every date of every row, over years of dates: the offset is kept per UTC day, and only the two days
// a year on which it changes are looked up hour by hour.
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CACHE_LIMIT = 100_000;

function offsetOfHour(hour: number): number {
  const p = partsOf(new Date(hour * HOUR));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - hour * HOUR;
}

const hourOffsets = new Map<number, number>();
function hourOffsetMs(time: number): number {
  const hour = Math.floor(time / HOUR);
  let offset = hourOffsets.get(hour);
  if (offset === undefined) {
    offset = offsetOfHour(hour);
    if (hourOffsets.size > CACHE_LIMIT) hourOffsets.clear();
    hourOffsets.set(hour, offset);
  }
  return offset;
}

/** The day's offset when it holds all day (first and last hour agree), else null. */
const dayOffsets = new Map<number, number | null>();
function offsetMs(time: number): number {
  const day = Math.floor(time / DAY);
  let offset = dayOffsets.get(day);
  if (offset === undefined) {
    const first = offsetOfHour(day * 24);
    offset = first === offsetOfHour(day * 24 + 23) ? first : null;
    if (dayOffsets.size > CACHE_LIMIT) dayOffsets.clear();
    dayOffsets.set(day, offset);
  }
  return offset ?? hourOffsetMs(time);
}

/** Wall-clock parts of an instant in Europe/Amsterdam. */
export function zonedParts(date: Date) {
  const time = date.getTime();
  if (!Number.isFinite(time)) {
    const parts = partsOf(date);
    return {
      year: parts.year,
      month: parts.month,
      day: parts.day,
      hour: parts.hour,
      minute: parts.minute,
      second: parts.second,
    };
  }
  const local = new Date(time + offsetMs(time));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function ymdToIso({ year, month, day }: Ymd): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function isValidYmd({ year, month, day }: Ymd): boolean {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  return Number.isInteger(day) && day >= 1 && day <= daysInMonth(year, month);
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
}

/** Today's calendar date in Europe/Amsterdam. */
export function todayYmd(now: Date = new Date()): Ymd {
  const { year, month, day } = zonedParts(now);
  return { year, month, day };
}

/** Day number since 1970-01-01 (for day differences and weekdays, free of DST). */
export function epochDay({ year, month, day }: Ymd): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.floor(d.getTime() / 86_400_000);
}

/** 0 = Monday ... 6 = Sunday, as the date settings' restrict_days count. */
export function weekdayMondayZero(ymd: Ymd): number {
  return (((epochDay(ymd) + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

export function compareYmd(a: Ymd, b: Ymd): number {
  return epochDay(a) - epochDay(b);
}

/** Amsterdam wall-clock time to an instant (a DST gap resolves forward, an overlap to winter time). */
export function amsterdamToInstant(ymd: Ymd, hour: number, minute: number, second = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(ymd.year, ymd.month - 1, ymd.day);
  d.setUTCHours(hour, minute, second, ms);
  const wall = d.getTime();
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - offsetMs(guess);
  return new Date(guess);
}

const DATE_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_NL = /^(\d{2})-(\d{2})-(\d{4})$/;
const DATETIME =
  /^(?:(\d{4})-(\d{2})-(\d{2})|(\d{2})-(\d{2})-(\d{4}))[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** 'YYYY-MM-DD' or 'DD-MM-YYYY' to a valid calendar date. */
export function parseDateOnly(text: string): Ymd | null {
  const iso = DATE_ISO.exec(text);
  const nl = iso ? null : DATE_NL.exec(text);
  const ymd = iso
    ? { year: +iso[1], month: +iso[2], day: +iso[3] }
    : nl
      ? { year: +nl[3], month: +nl[2], day: +nl[1] }
      : null;
  return ymd && isValidYmd(ymd) ? ymd : null;
}

/**
 * A date-time ('YYYY-MM-DDTHH:mm[:ss[.fff]][Z|±hh:mm]', 'DD-MM-YYYY HH:mm') to an instant.
 * Without an offset the time is read as Europe/Amsterdam wall-clock time.
 */
export function parseDateTime(text: string): Date | null {
  const m = DATETIME.exec(text);
  if (!m) return null;
  const ymd = m[1] ? { year: +m[1], month: +m[2], day: +m[3] } : { year: +m[6], month: +m[5], day: +m[4] };
  const [hour, minute, second] = [+m[7], +m[8], m[9] ? +m[9] : 0];
  const ms = m[10] ? Math.floor(Number(`0.${m[10]}`) * 1000) : 0;
  if (!isValidYmd(ymd) || hour > 23 || minute > 59 || second > 59) return null;
  const zone = m[11];
  if (!zone) return amsterdamToInstant(ymd, hour, minute, second, ms);
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    const sign = digits[0] === '-' ? -1 : 1;
    const oh = +digits.slice(1, 3);
    const om = +digits.slice(3, 5);
    if (oh > 14 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(ymd.year, ymd.month - 1, ymd.day);
  d.setUTCHours(hour, minute, second, ms);
  return new Date(d.getTime() - offsetMinutes * 60_000);
}

/** Any accepted date or date-time text to its Amsterdam calendar date. */
export function toYmd(text: string): Ymd | null {
  const dateOnly = parseDateOnly(text);
  if (dateOnly) return dateOnly;
  const instant = parseDateTime(text);
  return instant ? todayYmd(instant) : null;
}

/** 'YYYY-MM-DD' to 'dd-mm-yyyy' (no time zone shift for pure dates). */
export function formatYmd(ymd: Ymd): string {
  return `${pad(ymd.day)}-${pad(ymd.month)}-${pad(ymd.year, 4)}`;
}

/** An instant as 'dd-mm-yyyy HH:mm' in Europe/Amsterdam. */
export function formatInstant(instant: Date): string {
  const p = zonedParts(instant);
  return `${formatYmd(p)} ${pad(p.hour)}:${pad(p.minute)}`;
}
