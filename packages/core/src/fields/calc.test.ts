import { describe, expect, it } from 'vitest';
import { calcField, computeCalc } from './calc';

const parse = (formula: string) => calcField.settingsSchema.parse({ formula });

describe('calc field', () => {
  it('defaults to an empty formula and refuses one that does not parse', () => {
    expect(calcField.settingsSchema.parse({})).toEqual({ formula: '', show_slider: false, max_slider: 1000 });
    const bad = calcField.settingsSchema.safeParse({ formula: '1 +' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('Unexpected end of formula (at 4)');
  });

  it('computes from field values', () => {
    const settings = parse('{Price} * {Count}');
    const values = new Map<string, number | null>([
      ['Price', 2.5],
      ['Count', 4],
    ]);
    expect(computeCalc(settings, values)).toEqual({ ok: true, value: 10 });
    expect(computeCalc(parse(''), values)).toEqual({ ok: true, value: null });
    expect(computeCalc(parse('{Missing}'), values)).toEqual({
      ok: false,
      message: 'Unknown field "Missing"',
      position: 0,
    });
  });

  it('normalises results and formats numbers and booleans', () => {
    const s = parse('1');
    expect(calcField.normalise(3, s)).toEqual({ ok: true, value: 3 });
    expect(calcField.normalise({}, s)).toEqual({
      ok: false,
      message: 'A calculated value must be a number, text or TRUE/FALSE',
    });
    expect(calcField.format(1234.567, s)).toBe('1.234,57');
    expect(calcField.format(true, s)).toBe('Ja');
    expect(calcField.format(false, s, 'en-GB')).toBe('No');
    expect(calcField.operators).toContain('number_lt');
  });
});
