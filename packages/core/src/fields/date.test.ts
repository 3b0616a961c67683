import { describe, expect, it } from 'vitest';
import { dateField, newDeadlineReminder } from './date';

const parse = (settings: object = {}) => dateField.settingsSchema.parse(settings);
const date = parse();
const dateTime = parse({ withtime: true });
// Friday 15 March 2024, 13:00 in Amsterdam
const ctx = { now: new Date('2024-03-15T12:00:00Z') };

describe('date field', () => {
  it('has the spec defaults', () => {
    expect(date).toEqual({
      withtime: false,
      current_time_as_default: false,
      default_current_date: false,
      show_slider: false,
      show_ago: false,
      restriction: 'none',
      restrict_days: [],
      deadline: [],
    });
    expect(newDeadlineReminder()).toEqual({ number: 1, type: 'day', when: 'before', color: '' });
    expect(dateField.settingsSchema.safeParse({ deadline: [{ number: 32 }] }).success).toBe(false);
    expect(dateField.settingsSchema.safeParse({ restrict_days: [7] }).success).toBe(false);
  });

  it('stores a date as YYYY-MM-DD from ISO, DD-MM-YYYY or a browser timestamp', () => {
    expect(dateField.normalise('2024-02-29', date, ctx)).toEqual({ ok: true, value: '2024-02-29' });
    expect(dateField.normalise('05-03-2024', date, ctx)).toEqual({ ok: true, value: '2024-03-05' });
    // local midnight in Amsterdam, sent as UTC: still 5 March
    expect(dateField.normalise('2024-03-04T23:00:00.000Z', date, ctx)).toEqual({
      ok: true,
      value: '2024-03-05',
    });
  });

  it('refuses invalid dates', () => {
    for (const bad of ['2023-02-29', '31-04-2024', '2024-13-01', 'yesterday', '0999-01-01', 20240101])
      expect(dateField.normalise(bad, date, ctx)).toEqual({
        ok: false,
        message: 'Enter a valid date (DD-MM-YYYY)',
      });
  });

  it('stores a date-time as a UTC instant, reading zone-less input as Amsterdam time', () => {
    expect(dateField.normalise('2024-07-01T14:30', dateTime, ctx)).toEqual({
      ok: true,
      value: '2024-07-01T12:30:00.000Z',
    });
    expect(dateField.normalise('01-01-2024 14:30', dateTime, ctx)).toEqual({
      ok: true,
      value: '2024-01-01T13:30:00.000Z',
    });
    expect(dateField.normalise('2024-07-01T14:30:00+02:00', dateTime, ctx)).toEqual({
      ok: true,
      value: '2024-07-01T12:30:00.000Z',
    });
    expect(dateField.normalise('2024-07-01', dateTime, ctx)).toEqual({
      ok: true,
      value: '2024-06-30T22:00:00.000Z',
    });
    expect(dateField.normalise('2024-07-01T25:00', dateTime, ctx)).toEqual({
      ok: false,
      message: 'Enter a valid date and time (DD-MM-YYYY HH:mm)',
    });
  });

  it('applies the past/future restriction against today in Amsterdam', () => {
    const past = parse({ restriction: 'before_and_eq_current_date' });
    const future = parse({ restriction: 'after_and_eq_current_date' });
    expect(dateField.normalise('2024-03-15', past, ctx).ok).toBe(true);
    expect(dateField.normalise('2024-03-16', past, ctx)).toEqual({
      ok: false,
      message: 'The date may not be after today',
    });
    expect(dateField.normalise('2024-03-15', future, ctx).ok).toBe(true);
    expect(dateField.normalise('2024-03-14', future, ctx)).toEqual({
      ok: false,
      message: 'The date may not be before today',
    });
    // 23:30 UTC on the 15th is already the 16th in Amsterdam
    const late = parse({ withtime: true, restriction: 'before_and_eq_current_date' });
    expect(dateField.normalise('2024-03-15T23:30:00Z', late, ctx).ok).toBe(false);
  });

  it('refuses restricted weekdays (0 = Monday)', () => {
    const noWeekend = parse({ restrict_days: [5, 6] });
    expect(dateField.normalise('2024-03-16', noWeekend, ctx)).toEqual({
      ok: false,
      message: 'This day of the week cannot be chosen',
    });
    expect(dateField.normalise('2024-03-18', noWeekend, ctx).ok).toBe(true);
  });

  it('formats dd-mm-yyyy [HH:mm] in Europe/Amsterdam', () => {
    expect(dateField.format('2024-03-05', date)).toBe('05-03-2024');
    expect(dateField.format('2024-07-01T12:30:00.000Z', dateTime)).toBe('01-07-2024 14:30');
    expect(dateField.format('2024-07-01T23:30:00.000Z', date)).toBe('02-07-2024');
    expect(dateField.format(null, date)).toBe('');
  });

  it('casts per withtime and offers the date operators', () => {
    expect(dateField.sqlCast(date)).toBe('date');
    expect(dateField.sqlCast(dateTime)).toBe('timestamptz');
    expect(dateField.aggregations).toEqual(['min', 'max', 'count']);
    expect(dateField.operators).toEqual(
      expect.arrayContaining(['date_gte', 'date_between', 'birthday_weeks']),
    );
    expect(dateField.operators).toContain('date_subtract_max_days_to_go');
    expect(dateField.valueSchema(date).safeParse('2024-02-30').success).toBe(false);
    expect(dateField.valueSchema(dateTime).safeParse('2024-07-01T12:30:00.000Z').success).toBe(true);
  });
});
