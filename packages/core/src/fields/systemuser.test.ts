import { describe, expect, it } from 'vitest';
import { systemuserField } from './systemuser';

const s = systemuserField.settingsSchema.parse({});

describe('systemuser field', () => {
  it('is one user id, created_by by default', () => {
    expect(s).toEqual({ dossier_data: 'created_by' });
    expect(systemuserField.normalise(7, s)).toEqual({ ok: true, value: 7 });
    expect(systemuserField.normalise([7, 8], s)).toEqual({ ok: false, message: 'Choose only one user' });
    expect(systemuserField.format(7, s, 'nl-NL', { users: [{ id: 7, name: 'Eve' }] })).toBe('Eve');
    // the spec's two, and 'in' for the list's filter on several users
    expect(systemuserField.operators).toEqual(['equals', 'not_equals', 'in']);
    expect(systemuserField.sqlCast(s)).toBe('bigint');
  });
});
