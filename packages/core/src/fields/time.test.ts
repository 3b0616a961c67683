import { describe, expect, it } from 'vitest';
import { timeField } from './time';

const clock = timeField.settingsSchema.parse({});
const duration = timeField.settingsSchema.parse({ disable_limit: true });

describe('time field', () => {
  it('defaults to a clock time', () => {
    expect(clock).toEqual({ disable_limit: false });
  });

  it('stores HH:mm', () => {
    expect(timeField.normalise('9:05', clock)).toEqual({ ok: true, value: '09:05' });
    expect(timeField.normalise('23:59', clock)).toEqual({ ok: true, value: '23:59' });
    expect(timeField.normalise('24:00', clock)).toEqual({
      ok: false,
      message: 'Hours must be between 0 and 23',
    });
    expect(timeField.normalise('12:60', clock)).toEqual({
      ok: false,
      message: 'Minutes must be between 0 and 59',
    });
    for (const bad of ['12', '12:3a', 'noon', 1230, '-1:00'])
      expect(timeField.normalise(bad, clock)).toEqual({ ok: false, message: 'Enter a valid time (HH:mm)' });
  });

  it('lets hours pass 23 with disable_limit', () => {
    expect(timeField.normalise('125:30', duration)).toEqual({ ok: true, value: '125:30' });
    expect(timeField.valueSchema(duration).safeParse('125:30').success).toBe(true);
    expect(timeField.valueSchema(clock).safeParse('25:30').success).toBe(false);
  });

  it('aggregates like the spec says and casts to interval', () => {
    expect(timeField.aggregations).toEqual(['sum', 'avg', 'min', 'max', 'count']);
    expect(timeField.sqlCast(clock)).toBe('interval');
    expect(timeField.format('08:00', clock)).toBe('08:00');
  });
});
