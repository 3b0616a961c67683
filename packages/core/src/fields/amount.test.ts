import { describe, expect, it } from 'vitest';
import { amountField } from './amount';

const parse = (settings: object) => amountField.settingsSchema.parse(settings);
const number = parse({});
const euro = parse({ valueType: 'currency', currency: 'EUR' });
const percent = parse({ valueType: 'percentage', decimals: 1 });

describe('amount field', () => {
  it('has the spec defaults', () => {
    expect(number).toEqual({
      valueType: 'number',
      decimals: 2,
      currency: 'EUR',
      show_slider: false,
      max_slider: 1000,
    });
    expect(amountField.settingsSchema.safeParse({ currency: 'XYZ' }).success).toBe(false);
  });

  it('reads numbers in Dutch and English notation and rounds to the decimals', () => {
    expect(amountField.normalise('1.234,56', number)).toEqual({ ok: true, value: 1234.56 });
    expect(amountField.normalise('1,234.56', number)).toEqual({ ok: true, value: 1234.56 });
    expect(amountField.normalise('1,5', number)).toEqual({ ok: true, value: 1.5 });
    expect(amountField.normalise('1 000', number)).toEqual({ ok: true, value: 1000 });
    expect(amountField.normalise('1.005', number)).toEqual({ ok: true, value: 1.01 });
    expect(amountField.normalise(2.345, parse({ decimals: 0 }))).toEqual({ ok: true, value: 2 });
    expect(amountField.normalise(-0.001, number)).toEqual({ ok: true, value: 0 });
    expect(amountField.normalise('12,5%', percent)).toEqual({ ok: true, value: 12.5 });
    expect(amountField.normalise('', number)).toEqual({ ok: true, value: null });
  });

  it('refuses what is not an amount', () => {
    for (const bad of ['abc', '1e5', '€ 10', '1,2,3.4,5', Number.POSITIVE_INFINITY, true, {}])
      expect(amountField.normalise(bad, number)).toEqual({ ok: false, message: 'Enter a valid number' });
    expect(amountField.normalise(1e15, number)).toEqual({ ok: false, message: 'The amount is too large' });
  });

  it('stores values that fit the value schema', () => {
    expect(amountField.valueSchema(number).safeParse(1.23).success).toBe(true);
    expect(amountField.valueSchema(number).safeParse(1.234).success).toBe(false);
    expect(amountField.valueSchema(number).safeParse(null).success).toBe(true);
  });

  it('formats in nl-NL with currency, percentage and decimals', () => {
    expect(amountField.format(1234.5, euro)).toBe('€ 1.234,50');
    expect(amountField.format(-1234.5, euro)).toBe('€ -1.234,50');
    expect(amountField.format(1234.5, parse({ valueType: 'currency', currency: 'USD' }), 'en_GB')).toBe(
      '$1,234.50',
    );
    // the spec's symbols, as the editor shows them
    expect(
      amountField.format(7, parse({ valueType: 'currency', currency: 'PLN', decimals: 0 }), 'en_GB'),
    ).toBe('zł 7');
    expect(amountField.format(12.5, percent)).toBe('12,5%');
    expect(amountField.format(1234567.891, number)).toBe('1.234.567,89');
    expect(amountField.format(null, number)).toBe('');
    expect(amountField.format(3, number, 'not a locale!')).toBe('3,00');
  });

  it('aggregates, sorts and casts as a number', () => {
    expect(amountField.aggregations).toEqual(['sum', 'avg', 'min', 'max', 'count']);
    expect(amountField.sqlCast(number)).toBe('numeric');
    expect(amountField.operators).toContain('number_gt');
  });
});
