import { describe, expect, it } from 'vitest';
import { userField } from './user';

const single = userField.settingsSchema.parse({});
const multi = userField.settingsSchema.parse({ multiple: true });
const users = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Bob' },
];

describe('user field', () => {
  it('has the spec defaults', () => {
    expect(single).toEqual({ multiple: false, default_current_user: false, display_name_style: 'default' });
    expect(userField.settingsSchema.safeParse({ display_name_style: 'initials' }).success).toBe(false);
  });

  it('stores user ids', () => {
    expect(userField.normalise({ id: 2, username: 'bob' }, single, { users })).toEqual({
      ok: true,
      value: 2,
    });
    expect(userField.normalise(['1', 2], multi, { users })).toEqual({ ok: true, value: [1, 2] });
    expect(userField.normalise(3, single, { users })).toEqual({ ok: false, message: 'Unknown user 3' });
    expect(userField.normalise([1, 2], single)).toEqual({ ok: false, message: 'Choose only one user' });
    expect(userField.normalise('bob', single)).toEqual({ ok: false, message: 'Choose a valid user' });
  });

  it('formats names and offers the user operators', () => {
    expect(userField.format([1, 2], multi, 'nl-NL', { users })).toBe('Ada, Bob');
    // the spec's two, and 'in' for the list's filter on several users
    expect(userField.operators).toEqual(['equals', 'not_equals', 'in']);
    expect(userField.sqlCast(single)).toBe('jsonb');
  });
});
