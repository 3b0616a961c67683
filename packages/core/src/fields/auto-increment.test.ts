import { describe, expect, it } from 'vitest';
import { autoIncrementField } from './auto-increment';

const plain = autoIncrementField.settingsSchema.parse({});
const prefixed = autoIncrementField.settingsSchema.parse({ prefix: 'INV-' });

describe('autoIncrement field', () => {
  it('defaults to no prefix', () => {
    expect(plain).toEqual({ prefix: '' });
  });

  it('keeps whole numbers above 0, with or without the prefix', () => {
    expect(autoIncrementField.normalise(7, plain)).toEqual({ ok: true, value: 7 });
    expect(autoIncrementField.normalise('12', plain)).toEqual({ ok: true, value: 12 });
    expect(autoIncrementField.normalise('INV-12', prefixed)).toEqual({ ok: true, value: 12 });
    for (const bad of [0, -1, 1.5, 'x', 'INV-12', Number.MAX_SAFE_INTEGER + 2])
      expect(autoIncrementField.normalise(bad, plain)).toEqual({
        ok: false,
        message: 'Enter a whole number above 0',
      });
  });

  it('formats with the prefix', () => {
    expect(autoIncrementField.format(12, prefixed)).toBe('INV-12');
    expect(autoIncrementField.format(null, prefixed)).toBe('');
    expect(autoIncrementField.sqlCast(plain)).toBe('bigint');
    expect(autoIncrementField.operators).toContain('string_empty');
  });
});
