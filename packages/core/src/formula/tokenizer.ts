import { FormulaError } from './ast';

export type Token =
  | { type: 'number'; value: number; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'field'; value: string; pos: number } // {Field name}
  | { type: 'ident'; value: string; pos: number } // bare name, keyword or function
  | { type: 'op'; value: string; pos: number }
  | { type: '(' | ')' | ',' | 'eof'; value: string; pos: number };

const NUMBER = /(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const IDENT = /[\p{L}_][\p{L}\p{N}_]*/uy;
const OPERATORS = ['<=', '>=', '!=', '<>', '+', '-', '*', '/', '%', '=', '<', '>'];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t' };

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const pos = i;
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ type: ch, value: ch, pos });
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(source);
    if (num) {
      i += num[0].length;
      // '1.2.3', '12abc': a number glued to more is no number
      if (i < source.length && /[.\p{L}\p{N}_]/u.test(source[i]))
        throw new FormulaError('Invalid number', pos);
      const value = Number(num[0]);
      if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
        throw new FormulaError('Number is too large', pos);
      tokens.push({ type: 'number', value, pos });
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) throw new FormulaError('Text is missing its closing quote', pos);
        const c = source[i++];
        if (c === ch) break;
        if (c === '\\' && i < source.length) {
          const next = source[i++];
          value += ESCAPES[next] ?? next;
        } else value += c;
      }
      tokens.push({ type: 'string', value, pos });
      continue;
    }
    if (ch === '{') {
      const end = source.indexOf('}', i + 1);
      if (end < 0) throw new FormulaError('Field name is missing its closing }', pos);
      const raw = source.slice(i + 1, end);
      if (raw.includes('{')) throw new FormulaError('Field names cannot contain {', pos);
      const name = raw.trim();
      if (!name) throw new FormulaError('Field name is empty', pos);
      tokens.push({ type: 'field', value: name, pos });
      i = end + 1;
      continue;
    }
    IDENT.lastIndex = i;
    const ident = IDENT.exec(source);
    if (ident) {
      tokens.push({ type: 'ident', value: ident[0], pos });
      i += ident[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op) {
      tokens.push({ type: 'op', value: op === '<>' ? '!=' : op, pos });
      i += op.length;
      continue;
    }
    // '.', '[', ']' and the like: there is no property access or indexing in the language.
    throw new FormulaError(`Unexpected character "${String.fromCodePoint(source.codePointAt(i) ?? 0)}"`, pos);
  }
  tokens.push({ type: 'eof', value: '', pos: source.length });
  return tokens;
}
