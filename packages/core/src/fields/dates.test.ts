import { describe, expect, it } from 'vitest';
import { amsterdamToInstant, parseDateTime, todayYmd, weekdayMondayZero } from './dates';
import { parseLocaleNumber, resolveLocale, roundTo } from './shared';

describe('date helpers', () => {
  it('converts Amsterdam wall-clock time across DST changes', () => {
    expect(amsterdamToInstant({ year: 2024, month: 1, day: 15 }, 12, 0).toISOString()).toBe(
      '2024-01-15T11:00:00.000Z',
    );
    expect(amsterdamToInstant({ year: 2024, month: 7, day: 15 }, 12, 0).toISOString()).toBe(
      '2024-07-15T10:00:00.000Z',
    );
    // 02:30 does not exist on 31 March 2024: it becomes 03:30 summer time
    expect(amsterdamToInstant({ year: 2024, month: 3, day: 31 }, 2, 30).toISOString()).toBe(
      '2024-03-31T01:30:00.000Z',
    );
    expect(amsterdamToInstant({ year: 2024, month: 10, day: 27 }, 2, 30).toISOString()).toBe(
      '2024-10-27T01:30:00.000Z',
    );
  });

  it('reads offsets and knows the Amsterdam day and weekday', () => {
    expect(parseDateTime('2024-01-01T00:00:00-05:00')?.toISOString()).toBe('2024-01-01T05:00:00.000Z');
    expect(parseDateTime('2024-01-01T00:00:00+15:00')).toBeNull();
    expect(todayYmd(new Date('2024-03-15T23:30:00Z'))).toEqual({ year: 2024, month: 3, day: 16 });
    expect(weekdayMondayZero({ year: 2024, month: 3, day: 18 })).toBe(0);
    expect(weekdayMondayZero({ year: 2024, month: 3, day: 17 })).toBe(6);
  });
});

describe('number helpers', () => {
  it('parses locale numbers and rounds half away from zero', () => {
    expect(parseLocaleNumber('-1.234.567,8')).toBe(-1234567.8);
    expect(parseLocaleNumber('1.234.567')).toBe(1234567);
    expect(parseLocaleNumber('1,2.3,4')).toBeNull();
    expect(parseLocaleNumber('--1')).toBeNull();
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(0.5, 0)).toBe(1);
  });

  it('resolves spec locales and falls back to nl-NL', () => {
    expect(resolveLocale('en_GB')).toBe('en-GB');
    expect(resolveLocale('!!')).toBe('nl-NL');
  });
});
