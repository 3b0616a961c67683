import { describe, expect, it } from 'vitest';
import { isValidBsn, isValidIban, TEXT_REGEX_PRESETS, textField } from './text';

const defaults = textField.settingsSchema.parse({});

describe('text field', () => {
  it('has the spec defaults', () => {
    expect(defaults).toEqual({ regex: '', size: 100, validators: [], phone_number: false });
  });

  it('refuses a settings regex that does not compile', () => {
    expect(textField.settingsSchema.safeParse({ regex: '([' }).success).toBe(false);
  });

  it('normalises text, trims, and treats blank as empty', () => {
    expect(textField.normalise('  hello ', defaults)).toEqual({ ok: true, value: 'hello' });
    expect(textField.normalise(42, defaults)).toEqual({ ok: true, value: '42' });
    expect(textField.normalise('   ', defaults)).toEqual({ ok: true, value: null });
    expect(textField.normalise(undefined, defaults)).toEqual({ ok: true, value: null });
  });

  it('allows at most 255 characters', () => {
    expect(textField.normalise('x'.repeat(255), defaults).ok).toBe(true);
    expect(textField.normalise('x'.repeat(256), defaults)).toEqual({
      ok: false,
      message: 'Enter at most 255 characters',
    });
    expect(textField.normalise({ a: 1 }, defaults)).toEqual({ ok: false, message: 'Enter text' });
  });

  it('applies the regex and the preset patterns', () => {
    const zip = textField.settingsSchema.parse({ regex: TEXT_REGEX_PRESETS.dutch_zipcode });
    expect(textField.normalise('1234 AB', zip).ok).toBe(true);
    expect(textField.normalise('0123AB', zip)).toEqual({
      ok: false,
      message: 'The value does not match the required format',
    });
    const digits = textField.settingsSchema.parse({ regex: TEXT_REGEX_PRESETS.numbers_only });
    expect(textField.normalise('12a', digits).ok).toBe(false);
  });

  it('checks BSN and IBAN validators', () => {
    expect(isValidBsn('111222333')).toBe(true);
    expect(isValidBsn('123456789')).toBe(false);
    expect(isValidIban('NL91 ABNA 0417 1643 00')).toBe(true);
    expect(isValidIban('NL91ABNA0417164301')).toBe(false);
    const bsn = textField.settingsSchema.parse({ validators: ['BSN'] });
    expect(textField.normalise('123456789', bsn)).toEqual({ ok: false, message: 'Enter a valid BSN' });
    const iban = textField.settingsSchema.parse({ validators: ['IBAN', 'UniqueValue'] });
    expect(textField.normalise('nl91 abna 0417 1643 00', iban)).toEqual({
      ok: true,
      value: 'NL91ABNA0417164300',
    });
    expect(textField.normalise('NL00ABNA0417164300', iban)).toEqual({
      ok: false,
      message: 'Enter a valid IBAN',
    });
  });

  it('formats, sorts and searches as text', () => {
    expect(textField.format('abc', defaults)).toBe('abc');
    expect(textField.format(null, defaults)).toBe('');
    expect(textField.sortable(defaults)).toBe(true);
    expect(textField.sqlCast(defaults)).toBe('text');
    expect(textField.aggregations).toEqual(['count']);
    expect(textField.operators).toContain('string_like_equals');
    expect(textField.operators).toContain('number_gte');
  });
});
