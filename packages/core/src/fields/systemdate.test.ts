import { describe, expect, it } from 'vitest';
import { systemdateField } from './systemdate';

const s = systemdateField.settingsSchema.parse({});

describe('systemdate field', () => {
  it('defaults to created_at', () => {
    expect(s).toEqual({ dossier_data: 'created_at' });
  });

  it('keeps instants as UTC ISO strings', () => {
    expect(systemdateField.normalise('2024-01-01T10:00:00+01:00', s)).toEqual({
      ok: true,
      value: '2024-01-01T09:00:00.000Z',
    });
    expect(systemdateField.normalise(new Date('2024-01-01T09:00:00Z'), s)).toEqual({
      ok: true,
      value: '2024-01-01T09:00:00.000Z',
    });
    expect(systemdateField.normalise('soon', s)).toEqual({
      ok: false,
      message: 'Enter a valid date and time (DD-MM-YYYY HH:mm)',
    });
  });

  it('formats in Amsterdam time and searches like a date', () => {
    expect(systemdateField.format('2024-01-01T09:00:00.000Z', s)).toBe('01-01-2024 10:00');
    expect(systemdateField.sqlCast(s)).toBe('timestamptz');
    expect(systemdateField.operators).toContain('date_between');
  });
});
