import { describe, expect, it } from 'vitest';
import { FORMULA_MAX_LENGTH, type FormulaNode } from './ast';
import { evaluateFormula, type FormulaValue, lookupFromRecord, runFormula } from './evaluate';
import { parseFormula } from './parser';

const now = new Date('2024-03-15T12:00:00Z');
const fields = new Map<string, FormulaValue>([
  ['Price', 2.5],
  ['Count', 4],
  ['Name', 'Ada'],
  ['Empty', null],
  ['Start', '2024-01-31'],
  ['End', '2024-03-15'],
  ['Hours', [1, 2, null, '3.5']],
  ['Tags', ['a', '', 'b']],
  ['Total amount', 100],
  ['a.b', 7],
]);
const run = (source: string, lookup = fields) => runFormula(source, lookup, { now });
const value = (source: string, lookup = fields) => {
  const result = run(source, lookup);
  if (!result.ok) throw new Error(`${result.message} at ${result.position}`);
  return result.value;
};
const error = (source: string, lookup = fields) => {
  const result = run(source, lookup);
  return result.ok ? result : { message: result.message, position: result.position };
};

describe('formula parser', () => {
  it('builds an AST with positions and collects references once each', () => {
    const parsed = parseFormula('{Price} * Count + {Price}');
    expect(parsed.ok && parsed.references).toEqual(['Price', 'Count']);
    expect(parsed.ok && parsed.ast).toMatchObject({
      kind: 'binary',
      op: '+',
      pos: 16,
      left: {
        kind: 'binary',
        op: '*',
        left: { kind: 'field', name: 'Price', pos: 0 },
        right: { kind: 'field', name: 'Count' },
      },
    });
  });

  it('reports errors with 0-based positions', () => {
    expect(parseFormula('')).toEqual({ ok: false, message: 'Formula is empty', position: 0 });
    expect(parseFormula('1 +')).toEqual({ ok: false, message: 'Unexpected end of formula', position: 3 });
    expect(parseFormula('(1 + 2')).toEqual({
      ok: false,
      message: 'Expected a closing parenthesis',
      position: 6,
    });
    expect(parseFormula('1 + 2)')).toEqual({ ok: false, message: 'Unexpected ")"', position: 5 });
    expect(parseFormula('1 + FOO(2)')).toEqual({ ok: false, message: 'Unknown function "FOO"', position: 4 });
    expect(parseFormula('IF(1, 2)')).toEqual({ ok: false, message: 'IF expects 3 arguments', position: 0 });
    expect(parseFormula('ABS()')).toEqual({ ok: false, message: 'ABS expects 1 argument', position: 0 });
    expect(parseFormula('SUM()')).toEqual({
      ok: false,
      message: 'SUM expects at least 1 argument',
      position: 0,
    });
    expect(parseFormula('ROUND(1,2,3)')).toEqual({
      ok: false,
      message: 'ROUND expects 1 to 2 arguments',
      position: 0,
    });
    expect(parseFormula("'open")).toEqual({
      ok: false,
      message: 'Text is missing its closing quote',
      position: 0,
    });
    expect(parseFormula('1 + {Price')).toEqual({
      ok: false,
      message: 'Field name is missing its closing }',
      position: 4,
    });
    expect(parseFormula('{ }')).toEqual({ ok: false, message: 'Field name is empty', position: 0 });
    expect(parseFormula('1 # 2')).toEqual({ ok: false, message: 'Unexpected character "#"', position: 2 });
    expect(parseFormula('1 < 2 < 3')).toEqual({ ok: false, message: 'Unexpected "<"', position: 6 });
    expect(parseFormula('DATEDIFF("weeks", 1, 2)')).toEqual({
      ok: false,
      message: 'DATEDIFF unit must be one of days, months, years',
      position: 9,
    });
    expect(parseFormula('1 AND')).toEqual({ ok: false, message: 'Unexpected end of formula', position: 5 });
    expect(parseFormula('OR')).toEqual({ ok: false, message: 'Unexpected "OR"', position: 0 });
    expect(parseFormula('1.2.3')).toEqual({ ok: false, message: 'Invalid number', position: 0 });
  });
});

describe('formula evaluation', () => {
  it('follows arithmetic precedence and associativity', () => {
    expect(value('1 + 2 * 3')).toBe(7);
    expect(value('(1 + 2) * 3')).toBe(9);
    expect(value('10 - 4 - 3')).toBe(3);
    expect(value('2 * 3 % 4')).toBe(2);
    expect(value('-2 * -3')).toBe(6);
    expect(value('- -2')).toBe(2);
    expect(value('7 / 2')).toBe(3.5);
    expect(value('.5 + 1.25e1')).toBe(13);
  });

  it('compares and combines with AND/OR/NOT (comparison binds tighter than logic)', () => {
    expect(value('1 + 1 = 2 AND NOT 3 < 2')).toBe(true);
    expect(value('1 = 2 OR 2 <> 3')).toBe(true);
    expect(value('TRUE OR FALSE AND FALSE')).toBe(true);
    expect(value('not (true or false)')).toBe(false);
    expect(value('\'b\' > "a"')).toBe(true);
    expect(value('{Name} = "Ada"')).toBe(true);
    expect(value('"2" = 2')).toBe(true);
    expect(value('{Empty} = NULL')).toBe(true);
    expect(value('{Empty} != 0')).toBe(true);
    expect(value('{Empty} < 1')).toBeNull();
    expect(value('{Start} < {End}')).toBe(true);
  });

  it('reads fields by braces or bare names, and strings with escapes', () => {
    expect(value('{Total amount} / Count')).toBe(25);
    expect(value('{a.b} + 1')).toBe(8);
    expect(value("'it\\'s' ")).toBe("it's");
    expect(value('"say \\"hi\\""')).toBe('say "hi"');
  });

  it('runs the functions', () => {
    expect(value('IF({Count} > 3, "many", "few")')).toBe('many');
    expect(value('IF({Empty}, 1, 2)')).toBe(2);
    expect(value('IF(TRUE, 1, 1/0 + "x")')).toBe(1); // only the chosen branch runs
    expect(value('ROUND(2.345, 2)')).toBe(2.35);
    expect(value('ROUND(1.005, 2)')).toBe(1.01);
    expect(value('ROUND(-2.5)')).toBe(-3);
    expect(value('ROUND(1234, -2)')).toBe(1200);
    expect(value('SUM({Hours}, 1)')).toBe(7.5);
    expect(value('SUM({Empty})')).toBe(0);
    expect(value('MIN({Hours})')).toBe(1);
    expect(value('MAX(3, {Hours}, -1)')).toBe(3.5);
    expect(value('MIN({Empty})')).toBeNull();
    expect(value('ABS(-4.5)')).toBe(4.5);
    expect(value('CONCAT({Name}, " ", {Count}, {Empty}, TRUE)')).toBe('Ada 4TRUE');
    expect(value('JOIN(", ", {Name}, {Empty}, {Tags})')).toBe('Ada, a, b');
    expect(value('if(1, 2, 3)')).toBe(2); // function names ignore case
  });

  it('handles dates: TODAY and DATEDIFF in days, months and years', () => {
    expect(value('TODAY()')).toBe('2024-03-15');
    expect(value('DATEDIFF("days", {Start}, {End})')).toBe(44);
    expect(value('DATEDIFF("days", {End}, {Start})')).toBe(-44);
    expect(value('DATEDIFF("months", {Start}, {End})')).toBe(1);
    expect(value('DATEDIFF("months", "2024-01-31", "2024-02-29")')).toBe(0);
    expect(value('DATEDIFF("years", "1990-03-16", TODAY())')).toBe(33);
    expect(value('DATEDIFF("years", "15-03-1990", TODAY())')).toBe(34);
    expect(value('DATEDIFF("Days", "2024-03-30T23:30:00Z", "2024-04-01")')).toBe(1);
    expect(value('DATEDIFF("days", {Empty}, TODAY())')).toBeNull();
    expect(error('DATEDIFF("days", "soon", TODAY())')).toEqual({
      message: 'Expected a date but got "soon"',
      position: 17,
    });
  });

  it('turns division by zero into null', () => {
    expect(value('1 / 0')).toBeNull();
    expect(value('5 % 0')).toBeNull();
    expect(value('(1 / 0) * 2')).toBeNull();
    expect(value('{Empty} + 1')).toBeNull();
  });

  it('reports evaluation errors with positions', () => {
    expect(error('1 + {Nope}')).toEqual({ message: 'Unknown field "Nope"', position: 4 });
    expect(error('{Name} * 2')).toEqual({ message: 'Expected a number but got "Ada"', position: 0 });
    expect(error('NOT "x"')).toEqual({ message: 'Expected TRUE or FALSE but got "x"', position: 4 });
    expect(error('TRUE < 1')).toEqual({ message: 'Cannot compare TRUE with 1', position: 5 });
    expect(error('ROUND(1, 0.5)')).toEqual({
      message: 'ROUND digits must be a whole number from -10 to 10',
      position: 9,
    });
    expect(error('DATEDIFF({Name}, 1, 2)')).toEqual({
      message: 'DATEDIFF unit must be one of days, months, years',
      position: 9,
    });
  });

  it('accepts lookups as a function or a record, never seeing inherited keys', () => {
    const ast = (parseFormula('{x} + 1') as { ast: FormulaNode }).ast;
    expect(evaluateFormula(ast, (name) => (name === 'x' ? 1 : undefined))).toEqual({ ok: true, value: 2 });
    expect(evaluateFormula(ast, lookupFromRecord({ x: 2 }))).toEqual({ ok: true, value: 3 });
    expect(evaluateFormula(ast, () => new Date('2024-01-01T00:00:00Z'))).toEqual({
      ok: false,
      message: 'Expected a number but got "2024-01-01T00:00:00.…"',
      position: 0,
    });
    expect(evaluateFormula(ast, () => ({ valueOf: () => 1 }) as never)).toEqual({
      ok: false,
      message: 'Field "x" holds a value a formula cannot use',
      position: 0,
    });
  });
});

describe('hostile formulas', () => {
  it('stops deep nesting with a clear error instead of overflowing the stack', () => {
    const deep = `${'('.repeat(500)}1${')'.repeat(500)}`;
    expect(parseFormula(deep)).toEqual({
      ok: false,
      message: 'Formula is nested too deeply (maximum 50 levels)',
      position: 50,
    });
    expect(parseFormula(`${'-'.repeat(60)}1`)).toMatchObject({ ok: false, position: 50 });
    expect(parseFormula(`${'ABS('.repeat(60)}1${')'.repeat(60)}`)).toMatchObject({ ok: false });
    expect(parseFormula(`${'('.repeat(49)}1${')'.repeat(49)}`).ok).toBe(true);
  });

  it('refuses numbers beyond the safe range and out-of-range results', () => {
    expect(parseFormula('1e400')).toEqual({ ok: false, message: 'Number is too large', position: 0 });
    expect(parseFormula('9999999999999999999*9')).toEqual({
      ok: false,
      message: 'Number is too large',
      position: 0,
    });
    expect(error('9007199254740991 * 9')).toEqual({ message: 'Result is out of range', position: 17 });
    expect(error('9007199254740991 + 1')).toEqual({ message: 'Result is out of range', position: 17 });
    expect(error('SUM(9007199254740991, 9007199254740991)')).toEqual({
      message: 'Result is out of range',
      position: 0,
    });
    expect(value('1e-400')).toBe(0);
  });

  it('has no property access: odd names are only ever looked up', () => {
    expect(parseFormula('a.b')).toEqual({ ok: false, message: 'Unexpected character "."', position: 1 });
    expect(parseFormula('{Name}.length')).toEqual({
      ok: false,
      message: 'Unexpected character "."',
      position: 6,
    });
    expect(parseFormula('x[0]')).toEqual({ ok: false, message: 'Unexpected character "["', position: 1 });
    expect(error('{constructor}')).toEqual({ message: 'Unknown field "constructor"', position: 0 });
    expect(error('__proto__')).toEqual({ message: 'Unknown field "__proto__"', position: 0 });
    expect(error('toString + 1', lookupFromRecord({}) as never)).toEqual({
      message: 'Unknown field "toString"',
      position: 0,
    });
    expect(error('{__proto__}', lookupFromRecord({ a: 1 }) as never)).toEqual({
      message: 'Unknown field "__proto__"',
      position: 0,
    });
    expect(value('{constructor} + 1', new Map([['constructor', 1]]))).toBe(2);
  });

  it('limits length, steps and text size', () => {
    const long = `1${'+1'.repeat(FORMULA_MAX_LENGTH)}`;
    expect(parseFormula(long)).toEqual({
      ok: false,
      message: `Formula is longer than ${FORMULA_MAX_LENGTH} characters`,
      position: FORMULA_MAX_LENGTH,
    });
    const sum = `1${'+1'.repeat(999)}`;
    expect(value(sum)).toBe(1000); // a long flat chain is fine
    const big = new Map<string, FormulaValue>([['List', Array.from({ length: 200_000 }, () => 1)]]);
    expect(error('SUM({List})', big)).toEqual({ message: 'Formula takes too many steps', position: 4 });
    const text = new Map<string, FormulaValue>([['T', 'x'.repeat(6000)]]);
    expect(error('CONCAT({T}, {T})', text)).toEqual({ message: 'Text result is too long', position: 0 });
  });
});
