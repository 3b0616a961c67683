import {
  type BinaryOperator,
  DATEDIFF_UNITS,
  FORMULA_FUNCTIONS,
  FORMULA_MAX_DEPTH,
  FORMULA_MAX_LENGTH,
  FormulaError,
  type FormulaFunction,
  type FormulaNode,
} from './ast';
import { type Token, tokenize } from './tokenizer';

export type ParseResult =
  | { ok: true; ast: FormulaNode; references: string[] }
  | { ok: false; message: string; position: number };

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'TRUE', 'FALSE', 'NULL']);
const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);

/**
 * Grammar, loosest first:
 *   or := and (OR and)* ; and := not (AND not)* ; not := NOT not | comparison
 *   comparison := additive (op additive)? ; additive := term ([+-] term)*
 *   term := unary ([*\/%] unary)* ; unary := [+-] unary | primary
 *   primary := number | text | TRUE | FALSE | NULL | {field} | name | FUNC(args) | ( or )
 */
export function parseFormula(source: string): ParseResult {
  if (typeof source !== 'string' || source.trim() === '')
    return { ok: false, message: 'Formula is empty', position: 0 };
  if (source.length > FORMULA_MAX_LENGTH)
    return {
      ok: false,
      message: `Formula is longer than ${FORMULA_MAX_LENGTH} characters`,
      position: FORMULA_MAX_LENGTH,
    };
  try {
    const parser = new Parser(tokenize(source));
    const ast = parser.parseAll();
    return { ok: true, ast, references: [...parser.references] };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, message: error.message, position: error.position };
    throw error;
  }
}

class Parser {
  private index = 0;
  private depth = 0;
  readonly references = new Set<string>();

  constructor(private readonly tokens: Token[]) {}

  parseAll(): FormulaNode {
    const node = this.parseOr();
    const next = this.peek();
    if (next.type !== 'eof') throw this.unexpected(next);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    if (token.type !== 'eof') this.index++;
    return token;
  }

  private isKeyword(token: Token, word: string) {
    return token.type === 'ident' && token.value.toUpperCase() === word;
  }

  private unexpected(token: Token): FormulaError {
    return token.type === 'eof'
      ? new FormulaError('Unexpected end of formula', token.pos)
      : new FormulaError(`Unexpected "${token.type === 'string' ? 'text' : token.value}"`, token.pos);
  }

  private expect(type: ')' | '(', what: string): Token {
    const token = this.peek();
    if (token.type !== type)
      throw token.type === 'eof' ? new FormulaError(`Expected ${what}`, token.pos) : this.unexpected(token);
    return this.next();
  }

  // Every nesting construct passes here, so hostile input fails fast instead of blowing the stack.
  private nested<T>(pos: number, parse: () => T): T {
    if (++this.depth > FORMULA_MAX_DEPTH)
      throw new FormulaError(`Formula is nested too deeply (maximum ${FORMULA_MAX_DEPTH} levels)`, pos);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private binary(op: BinaryOperator, left: FormulaNode, right: FormulaNode, pos: number): FormulaNode {
    return { kind: 'binary', op, left, right, pos };
  }

  private parseOr(): FormulaNode {
    let left = this.parseAnd();
    while (this.isKeyword(this.peek(), 'OR')) {
      const { pos } = this.next();
      left = this.binary('OR', left, this.parseAnd(), pos);
    }
    return left;
  }

  private parseAnd(): FormulaNode {
    let left = this.parseNot();
    while (this.isKeyword(this.peek(), 'AND')) {
      const { pos } = this.next();
      left = this.binary('AND', left, this.parseNot(), pos);
    }
    return left;
  }

  private parseNot(): FormulaNode {
    const token = this.peek();
    if (this.isKeyword(token, 'NOT')) {
      this.next();
      return this.nested(token.pos, () => ({
        kind: 'unary',
        op: 'NOT',
        operand: this.parseNot(),
        pos: token.pos,
      }));
    }
    return this.parseComparison();
  }

  private parseComparison(): FormulaNode {
    const left = this.parseAdditive();
    const token = this.peek();
    if (token.type === 'op' && COMPARISONS.has(token.value)) {
      this.next();
      return this.binary(token.value as BinaryOperator, left, this.parseAdditive(), token.pos);
    }
    return left;
  }

  private parseAdditive(): FormulaNode {
    let left = this.parseTerm();
    for (let t = this.peek(); t.type === 'op' && (t.value === '+' || t.value === '-'); t = this.peek()) {
      this.next();
      left = this.binary(t.value as BinaryOperator, left, this.parseTerm(), t.pos);
    }
    return left;
  }

  private parseTerm(): FormulaNode {
    let left = this.parseUnary();
    for (let t = this.peek(); t.type === 'op' && ['*', '/', '%'].includes(t.value); t = this.peek()) {
      this.next();
      left = this.binary(t.value as BinaryOperator, left, this.parseUnary(), t.pos);
    }
    return left;
  }

  private parseUnary(): FormulaNode {
    const token = this.peek();
    if (token.type === 'op' && (token.value === '-' || token.value === '+')) {
      this.next();
      const op = token.value;
      return this.nested(token.pos, () => ({
        kind: 'unary',
        op,
        operand: this.parseUnary(),
        pos: token.pos,
      }));
    }
    return this.parsePrimary();
  }

  private parsePrimary(): FormulaNode {
    const token = this.next();
    switch (token.type) {
      case 'number':
        return { kind: 'number', value: token.value, pos: token.pos };
      case 'string':
        return { kind: 'string', value: token.value, pos: token.pos };
      case 'field':
        this.references.add(token.value);
        return { kind: 'field', name: token.value, pos: token.pos };
      case '(':
        return this.nested(token.pos, () => {
          const inner = this.parseOr();
          this.expect(')', 'a closing parenthesis');
          return inner;
        });
      case 'ident':
        return this.parseName(token);
      default:
        throw this.unexpected(token);
    }
  }

  private parseName(token: Token & { type: 'ident' }): FormulaNode {
    const upper = token.value.toUpperCase();
    if (this.peek().type === '(') return this.parseCall(token);
    if (upper === 'TRUE' || upper === 'FALSE')
      return { kind: 'boolean', value: upper === 'TRUE', pos: token.pos };
    if (upper === 'NULL') return { kind: 'null', pos: token.pos };
    if (KEYWORDS.has(upper)) throw this.unexpected(token);
    // A bare simple name is a field reference, exactly as {name}.
    this.references.add(token.value);
    return { kind: 'field', name: token.value, pos: token.pos };
  }

  private parseCall(token: Token & { type: 'ident' }): FormulaNode {
    const name = token.value.toUpperCase();
    if (!Object.hasOwn(FORMULA_FUNCTIONS, name))
      throw new FormulaError(`Unknown function "${token.value}"`, token.pos);
    const fn = name as FormulaFunction;
    const open = this.expect('(', 'an opening parenthesis');
    const args = this.nested(open.pos, () => {
      const list: FormulaNode[] = [];
      if (this.peek().type === ')') {
        this.next();
        return list;
      }
      for (;;) {
        list.push(this.parseOr());
        const sep = this.peek();
        if (sep.type === ',') this.next();
        else if (sep.type === ')') {
          this.next();
          return list;
        } else
          throw sep.type === 'eof'
            ? new FormulaError('Expected a closing parenthesis', sep.pos)
            : this.unexpected(sep);
      }
    });
    const [min, max] = FORMULA_FUNCTIONS[fn];
    if (args.length < min || args.length > max) {
      const count =
        min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
      const plural = !(min === 1 && (max === 1 || max === Number.POSITIVE_INFINITY));
      throw new FormulaError(`${fn} expects ${count} argument${plural ? 's' : ''}`, token.pos);
    }
    const unit = args[0];
    if (fn === 'DATEDIFF' && unit.kind === 'string' && !isDateDiffUnit(unit.value))
      throw new FormulaError(`DATEDIFF unit must be one of ${DATEDIFF_UNITS.join(', ')}`, unit.pos);
    return { kind: 'call', name: fn, args, pos: token.pos };
  }
}

export function isDateDiffUnit(value: string): value is (typeof DATEDIFF_UNITS)[number] {
  return (DATEDIFF_UNITS as readonly string[]).includes(value.toLowerCase());
}
