import { epochDay, todayYmd, toYmd, type Ymd, ymdToIso } from '../fields/dates';
import { roundTo } from '../fields/shared';
import { FORMULA_MAX_STEPS, FORMULA_MAX_TEXT, FormulaError, type FormulaNode } from './ast';
import { isDateDiffUnit, parseFormula } from './parser';

export type FormulaScalar = number | string | boolean | null;
export type FormulaValue = FormulaScalar | readonly FormulaValue[];

/** Resolves a field name to its value; undefined means there is no such field. */
export type FormulaLookup =
  | ReadonlyMap<string, FormulaValue>
  | ((name: string) => FormulaValue | Date | undefined);

export interface EvaluateOptions {
  /** The clock for TODAY() (Europe/Amsterdam calendar day). */
  now?: Date;
  maxSteps?: number;
}

export type EvaluateResult =
  | { ok: true; value: FormulaValue }
  | { ok: false; message: string; position: number };

/** A lookup over a plain object that only sees its own keys (never `constructor`, `__proto__`...). */
export function lookupFromRecord(record: Readonly<Record<string, FormulaValue>>): FormulaLookup {
  return (name) => (Object.hasOwn(record, name) ? record[name] : undefined);
}

export function evaluateFormula(
  ast: FormulaNode,
  lookup: FormulaLookup,
  options: EvaluateOptions = {},
): EvaluateResult {
  try {
    return { ok: true, value: new Evaluator(lookup, options).eval(ast) };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
}

/** Parse and evaluate in one go. */
export function runFormula(source: string, lookup: FormulaLookup, options?: EvaluateOptions): EvaluateResult {
  const parsed = parseFormula(source);
  return parsed.ok ? evaluateFormula(parsed.ast, lookup, options) : parsed;
}

const NUMERIC_TEXT = /^\s*-?(\d+(\.\d+)?|\.\d+)\s*$/;

function describe(value: FormulaValue): string {
  if (value === null) return 'NULL';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `"${value.length > 20 ? `${value.slice(0, 20)}…` : value}"`;
  return String(value).toUpperCase();
}

class Evaluator {
  private steps = 0;
  private readonly maxSteps: number;
  private readonly cache = new Map<string, FormulaValue>();

  constructor(
    private readonly lookup: FormulaLookup,
    private readonly options: EvaluateOptions,
  ) {
    this.maxSteps = options.maxSteps ?? FORMULA_MAX_STEPS;
  }

  private step(pos: number) {
    if (++this.steps > this.maxSteps) throw new FormulaError('Formula takes too many steps', pos);
  }

  eval(node: FormulaNode): FormulaValue {
    this.step(node.pos);
    switch (node.kind) {
      case 'number':
      case 'string':
      case 'boolean':
        return node.value;
      case 'null':
        return null;
      case 'field':
        return this.field(node.name, node.pos);
      case 'unary': {
        const value = this.eval(node.operand);
        if (node.op === 'NOT') return !this.bool(value, node.operand.pos);
        if (value === null) return null;
        const n = this.num(value, node.operand.pos);
        return node.op === '-' ? this.checked(0 - n, node.pos) : n;
      }
      case 'binary':
        return this.binary(node);
      case 'call':
        return this.call(node);
    }
  }

  private field(name: string, pos: number): FormulaValue {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const raw = typeof this.lookup === 'function' ? this.lookup(name) : this.lookup.get(name);
    if (raw === undefined) throw new FormulaError(`Unknown field "${name}"`, pos);
    const value = this.accept(raw, name, pos, 0);
    this.cache.set(name, value);
    return value;
  }

  /** Values from outside are checked: only numbers, text, booleans, null, dates and lists of those. */
  private accept(raw: unknown, name: string, pos: number, depth: number): FormulaValue {
    if (raw === null || typeof raw === 'string' || typeof raw === 'boolean') return raw;
    if (typeof raw === 'number') {
      if (!Number.isFinite(raw)) throw new FormulaError(`Field "${name}" holds an invalid number`, pos);
      return raw;
    }
    if (raw instanceof Date && !Number.isNaN(raw.getTime())) return raw.toISOString();
    if (Array.isArray(raw) && depth < 2)
      return raw.map((item) => {
        this.step(pos);
        return this.accept(item, name, pos, depth + 1);
      });
    throw new FormulaError(`Field "${name}" holds a value a formula cannot use`, pos);
  }

  private checked(n: number, pos: number): number {
    if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER)
      throw new FormulaError('Result is out of range', pos);
    return n === 0 ? 0 : n; // no -0
  }

  private num(value: FormulaValue, pos: number): number {
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value);
    throw new FormulaError(`Expected a number but got ${describe(value)}`, pos);
  }

  private bool(value: FormulaValue, pos: number): boolean {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value !== 0;
    if (value === null) return false;
    throw new FormulaError(`Expected TRUE or FALSE but got ${describe(value)}`, pos);
  }

  private text(value: FormulaValue): string {
    if (value === null) return '';
    if (Array.isArray(value)) return value.map((v) => this.text(v)).join(', ');
    return typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value);
  }

  private binary(node: FormulaNode & { kind: 'binary' }): FormulaValue {
    const { op, pos } = node;
    if (op === 'AND' || op === 'OR') {
      const left = this.bool(this.eval(node.left), node.left.pos);
      if (op === 'AND' ? !left : left) return left; // short-circuit
      return this.bool(this.eval(node.right), node.right.pos);
    }
    const left = this.eval(node.left);
    const right = this.eval(node.right);
    if (op === '=') return this.equal(left, right);
    if (op === '!=') return !this.equal(left, right);
    if (left === null || right === null) return null;
    if (op === '<' || op === '<=' || op === '>' || op === '>=') {
      const c = this.compare(left, right, pos);
      return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
    const a = this.num(left, node.left.pos);
    const b = this.num(right, node.right.pos);
    if ((op === '/' || op === '%') && b === 0) return null; // division by zero is no value
    const result = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' ? a / b : a % b;
    return this.checked(result, pos);
  }

  private equal(a: FormulaValue, b: FormulaValue): boolean {
    if (a === null || b === null) return a === b;
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
      return a.every((item, i) => this.equal(item, b[i]));
    }
    if (typeof a === 'number' && typeof b === 'string') return NUMERIC_TEXT.test(b) && a === Number(b);
    if (typeof a === 'string' && typeof b === 'number') return this.equal(b, a);
    return a === b;
  }

  private compare(a: FormulaValue, b: FormulaValue, pos: number): number {
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0; // ISO dates sort as text
    if (typeof a === 'boolean' || typeof b === 'boolean' || Array.isArray(a) || Array.isArray(b))
      throw new FormulaError(`Cannot compare ${describe(a)} with ${describe(b)}`, pos);
    return this.num(a, pos) - this.num(b, pos);
  }

  /** Arguments with lists spread out, for SUM, MIN, MAX and JOIN. */
  private spread(args: FormulaNode[]): { value: FormulaScalar; pos: number }[] {
    const out: { value: FormulaScalar; pos: number }[] = [];
    const walk = (value: FormulaValue, pos: number) => {
      this.step(pos);
      if (Array.isArray(value)) for (const item of value) walk(item, pos);
      else out.push({ value: value as FormulaScalar, pos });
    };
    for (const arg of args) walk(this.eval(arg), arg.pos);
    return out;
  }

  private numbers(args: FormulaNode[]): number[] {
    return this.spread(args)
      .filter((a) => a.value !== null) // empty fields are skipped
      .map((a) => this.num(a.value, a.pos));
  }

  private limitText(text: string, pos: number): string {
    if (text.length > FORMULA_MAX_TEXT) throw new FormulaError('Text result is too long', pos);
    return text;
  }

  private call(node: FormulaNode & { kind: 'call' }): FormulaValue {
    const { args, pos } = node;
    switch (node.name) {
      case 'IF':
        return this.bool(this.eval(args[0]), args[0].pos) ? this.eval(args[1]) : this.eval(args[2]);
      case 'ROUND': {
        const value = this.eval(args[0]);
        const digits = args[1] ? this.eval(args[1]) : 0;
        if (typeof digits !== 'number' || !Number.isInteger(digits) || Math.abs(digits) > 10)
          throw new FormulaError('ROUND digits must be a whole number from -10 to 10', args[1]?.pos ?? pos);
        return value === null ? null : this.checked(roundTo(this.num(value, args[0].pos), digits), pos);
      }
      case 'SUM':
        return this.numbers(args).reduce((sum, n) => this.checked(sum + n, pos), 0);
      case 'MIN':
      case 'MAX': {
        const list = this.numbers(args);
        if (list.length === 0) return null;
        return list.reduce((best, n) => (node.name === 'MIN' ? Math.min(best, n) : Math.max(best, n)));
      }
      case 'ABS': {
        const value = this.eval(args[0]);
        return value === null ? null : Math.abs(this.num(value, args[0].pos));
      }
      case 'CONCAT': {
        let out = '';
        for (const arg of args) out = this.limitText(out + this.text(this.eval(arg)), pos);
        return out;
      }
      case 'JOIN': {
        const separator = this.text(this.eval(args[0]));
        const parts = this.spread(args.slice(1))
          .map((a) => this.text(a.value))
          .filter((t) => t !== '');
        return this.limitText(parts.join(separator), pos);
      }
      case 'DATEDIFF':
        return this.dateDiff(node);
      case 'TODAY':
        return ymdToIso(todayYmd(this.options.now ?? new Date()));
    }
  }

  private date(node: FormulaNode): Ymd | null {
    const value = this.eval(node);
    if (value === null) return null;
    const ymd = typeof value === 'string' ? toYmd(value.trim()) : null;
    if (!ymd) throw new FormulaError(`Expected a date but got ${describe(value)}`, node.pos);
    return ymd;
  }

  private dateDiff(node: FormulaNode & { kind: 'call' }): FormulaValue {
    const [unitNode, fromNode, toNode] = node.args;
    const unit = this.eval(unitNode);
    if (typeof unit !== 'string' || !isDateDiffUnit(unit))
      throw new FormulaError('DATEDIFF unit must be one of days, months, years', unitNode.pos);
    const from = this.date(fromNode);
    const to = this.date(toNode);
    if (!from || !to) return null;
    const u = unit.toLowerCase();
    if (u === 'days') return epochDay(to) - epochDay(from);
    const months = monthsBetween(from, to);
    return u === 'months' ? months : Math.trunc(months / 12) || 0;
  }
}

/** Whole months from a to b (negative when b is earlier), as a calendar counts them. */
function monthsBetween(a: Ymd, b: Ymd): number {
  if (epochDay(b) < epochDay(a)) return -monthsBetween(b, a) || 0;
  const months = (b.year - a.year) * 12 + (b.month - a.month);
  return b.day < a.day ? months - 1 : months;
}
