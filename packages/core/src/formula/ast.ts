// The calc-field formula language: its limits, functions and syntax tree.

export const FORMULA_MAX_LENGTH = 2000;
export const FORMULA_MAX_DEPTH = 50;
export const FORMULA_MAX_STEPS = 100_000;
export const FORMULA_MAX_TEXT = 10_000;

export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'AND'
  | 'OR';

export type FormulaNode =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'boolean'; value: boolean; pos: number }
  | { kind: 'null'; pos: number }
  | { kind: 'field'; name: string; pos: number }
  | { kind: 'unary'; op: '-' | '+' | 'NOT'; operand: FormulaNode; pos: number }
  | { kind: 'binary'; op: BinaryOperator; left: FormulaNode; right: FormulaNode; pos: number }
  | { kind: 'call'; name: FormulaFunction; args: FormulaNode[]; pos: number };

/** Argument counts: [min, max]; max Infinity for lists. */
export const FORMULA_FUNCTIONS = {
  IF: [3, 3],
  ROUND: [1, 2],
  SUM: [1, Number.POSITIVE_INFINITY],
  MIN: [1, Number.POSITIVE_INFINITY],
  MAX: [1, Number.POSITIVE_INFINITY],
  ABS: [1, 1],
  CONCAT: [1, Number.POSITIVE_INFINITY],
  JOIN: [2, Number.POSITIVE_INFINITY],
  DATEDIFF: [3, 3],
  TODAY: [0, 0],
} as const satisfies Record<string, readonly [number, number]>;
export type FormulaFunction = keyof typeof FORMULA_FUNCTIONS;

export const DATEDIFF_UNITS = ['days', 'months', 'years'] as const;

/** Errors carry the 0-based character offset they refer to. */
export class FormulaError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'FormulaError';
  }
}
