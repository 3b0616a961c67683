import { describe, expect, it } from 'vitest';
import {
  MAX_SERIES,
  type RecurrenceInput,
  recurrenceSchema,
  SERIES_MESSAGES,
  seriesDates,
  seriesProblem,
} from './index';

const dates = (input: RecurrenceInput) => seriesDates(recurrenceSchema.parse(input));

describe('seriesDates', () => {
  it('daily every two days until a date', () => {
    expect(
      dates({
        frequency: 'daily',
        start: '2026-01-30',
        interval: 2,
        end: { type: 'date', date: '2026-02-05' },
      }),
    ).toEqual(['2026-01-30', '2026-02-01', '2026-02-03', '2026-02-05']);
  });
  it('weekly on Monday and Wednesday, four times', () => {
    expect(
      dates({
        frequency: 'weekly',
        start: '2026-12-01',
        weekdays: ['MO', 'WE'],
        end: { type: 'count', count: 4 },
      }),
    ).toEqual(['2026-12-02', '2026-12-07', '2026-12-09', '2026-12-14']);
  });
  it('monthly on the last Friday, twelve times', () => {
    const result = dates({
      frequency: 'monthly',
      start: '2027-01-01',
      on: 'ordinal',
      ordinal: -1,
      ordinalDay: 'FR',
      end: { type: 'count', count: 12 },
    });
    expect(result).toHaveLength(12);
    expect(result.slice(0, 3)).toEqual(['2027-01-29', '2027-02-26', '2027-03-26']);
    for (const d of result) expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBe(5);
  });
  it('monthly on day 31 skips shorter months; first weekday and last weekend day', () => {
    expect(
      dates({ frequency: 'monthly', start: '2027-01-01', day: 31, end: { type: 'count', count: 3 } }),
    ).toEqual(['2027-01-31', '2027-03-31', '2027-05-31']);
    expect(
      dates({
        frequency: 'monthly',
        start: '2027-05-01',
        on: 'ordinal',
        ordinal: 1,
        ordinalDay: 'weekday',
        end: { type: 'count', count: 2 },
      }),
    ).toEqual(['2027-05-03', '2027-06-01']);
    expect(
      dates({
        frequency: 'monthly',
        start: '2027-05-01',
        on: 'ordinal',
        ordinal: -1,
        ordinalDay: 'weekendday',
        end: { type: 'count', count: 1 },
      }),
    ).toEqual(['2027-05-30']);
  });
  it('yearly on 15 March, and on the second Tuesday of the month', () => {
    expect(
      dates({
        frequency: 'yearly',
        start: '2027-01-01',
        day: 15,
        month: 3,
        end: { type: 'count', count: 2 },
      }),
    ).toEqual(['2027-03-15', '2028-03-15']);
    expect(
      dates({
        frequency: 'yearly',
        start: '2027-01-01',
        month: 6,
        on: 'ordinal',
        ordinal: 2,
        ordinalDay: 'TU',
        end: { type: 'count', count: 1 },
      }),
    ).toEqual(['2027-06-08']);
  });
  it('at most 999, and one more tells of too many', () => {
    expect(
      dates({ frequency: 'daily', start: '2027-01-01', end: { type: 'count', count: 999 } }),
    ).toHaveLength(MAX_SERIES);
    expect(
      dates({ frequency: 'daily', start: '2027-01-01', end: { type: 'date', date: '2040-01-01' } }),
    ).toHaveLength(MAX_SERIES + 1);
    expect(
      recurrenceSchema.safeParse({
        frequency: 'daily',
        start: '2027-01-01',
        end: { type: 'count', count: 1000 },
      }).success,
    ).toBe(false);
  });
});

describe('seriesProblem', () => {
  const rule = (start: string, end: string) =>
    recurrenceSchema.parse({ frequency: 'daily', start, end: { type: 'date', date: end } });
  it('the spec two messages', () => {
    expect(seriesProblem(rule('2026-05-02', '2026-05-01'), 'none', '2026-06-01')).toBe(
      SERIES_MESSAGES.endDateOutOfRange,
    );
    expect(seriesProblem(rule('2026-05-01', '2026-07-01'), 'before_and_eq_current_date', '2026-06-01')).toBe(
      SERIES_MESSAGES.endOrStartDateFuture,
    );
    expect(seriesProblem(rule('2026-05-01', '2026-07-01'), 'after_and_eq_current_date', '2026-06-01')).toBe(
      SERIES_MESSAGES.endOrStartDateFuture,
    );
    expect(seriesProblem(rule('2026-05-01', '2026-05-01'), 'none', '2026-06-01')).toBeNull();
  });
});
