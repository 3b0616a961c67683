import { describe, expect, it } from 'vitest';
import { zonedParts } from './dates';

// zonedParts keeps Amsterdam's offset per UTC hour; checked against Intl itself, across both DST changes.
const intl = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Amsterdam',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const byIntl = (date: Date) => {
  const p: Record<string, number> = {};
  for (const part of intl.formatToParts(date)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
};

describe('zonedParts', () => {
  it('matches Intl every 7 minutes around the DST changes of 2026 and on ordinary days', () => {
    for (const start of [
      '2026-03-28T20:00:00Z',
      '2026-10-24T20:00:00Z',
      '2026-07-01T00:00:00Z',
      '1999-12-31T20:00:00Z',
    ]) {
      const from = Date.parse(start);
      for (let t = from; t < from + 48 * 3_600_000; t += 7 * 60_000 + 13_000) {
        const date = new Date(t);
        expect(zonedParts(date), date.toISOString()).toEqual(byIntl(date));
      }
    }
  });
});
