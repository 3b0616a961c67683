import { z } from 'zod';
import { MAX_INT4 } from '../api/common';
import { idSchema } from '../api/ids';
import type { FieldContext, NormaliseResult, ValueSource } from './types';

export const ok = <V>(value: V | null): NormaliseResult<V> => ({ ok: true, value });
export const fail = <V = never>(message: string): NormaliseResult<V> => ({ ok: false, message });

export const MESSAGES = {
  text: 'Enter text',
  number: 'Enter a valid number',
  id: 'Enter a valid id',
  tooLong: (max: number) => `Enter at most ${max} characters`,
} as const;

/** null, undefined, '', whitespace and [] are all "no value". */
export function isEmpty(raw: unknown): boolean {
  if (raw === null || raw === undefined) return true;
  if (typeof raw === 'string') return raw.trim() === '';
  return Array.isArray(raw) && raw.length === 0;
}

/** Text input: strings, and numbers as their digits; anything else is refused. */
export function asText(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return null;
}

/**
 * An id as number: 12, '12' or {id: 12}. Ids of `integer` columns (options, users, files) go up to
 * MAX_INT4; dossier ids (bigint) pass their own `max`.
 */
export function asId(raw: unknown, max: number = MAX_INT4): number | null {
  let v = raw;
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, 'id')) {
    v = (v as { id: unknown }).id;
  }
  if (typeof v === 'string' && /^\d{1,16}$/.test(v.trim())) v = Number(v.trim());
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= max ? v : null;
}

/**
 * One id or a list of ids (deduplicated). Single-valued fields give a number, multiple ones an array.
 * `known` (when given) limits the ids to those the caller knows.
 */
type IdMessages = { invalid: string; tooMany: string; unknown: (id: number) => string };
type Known = readonly { id: number }[] | undefined;
export function normaliseIds(
  raw: unknown,
  multiple: false,
  m: IdMessages,
  known?: Known,
  max?: number,
): NormaliseResult<number>;
export function normaliseIds(
  raw: unknown,
  multiple: boolean,
  m: IdMessages,
  known?: Known,
  max?: number,
): NormaliseResult<number | number[]>;
export function normaliseIds(
  raw: unknown,
  multiple: boolean,
  messages: IdMessages,
  known?: Known,
  max?: number,
): NormaliseResult<number | number[]> {
  if (isEmpty(raw)) return ok(null);
  const items = Array.isArray(raw) ? raw : [raw];
  const ids: number[] = [];
  for (const item of items) {
    const id = asId(item, max);
    if (id === null) return fail(messages.invalid);
    if (!ids.includes(id)) ids.push(id);
  }
  if (known) {
    const missing = ids.find((id) => !known.some((k) => k.id === id));
    if (missing !== undefined) return fail(messages.unknown(missing));
  }
  if (multiple) return ok(ids);
  if (ids.length > 1) return fail(messages.tooMany);
  return ok(ids[0]);
}

/** Labels for stored ids, '#id' when the caller does not know the label. */
export function labelIds(
  value: number | number[] | null | undefined,
  known: readonly { id: number; label?: string; name?: string }[] = [],
): string {
  if (value === null || value === undefined) return '';
  const ids = Array.isArray(value) ? value : [value];
  return ids
    .map((id) => {
      const k = known.find((x) => x.id === id);
      return k?.label ?? k?.name ?? `#${id}`;
    })
    .join(', ');
}

export { idSchema };
export function idValueSchema(
  multiple: boolean,
  id: z.ZodType<number> = idSchema,
): z.ZodType<number | number[] | null> {
  return multiple ? z.array(id).min(1).max(10_000).nullable() : id.nullable();
}

export const flag = (value = false) => z.boolean().default(value);

/** An optional id setting: a positive id, or empty ('' and null both mean none). */
export const optionalIdSetting = z
  .union([idSchema, z.null(), z.literal('').transform(() => null)])
  .default(null);

const localeCache = new Map<string, string>();

/** 'nl_NL' / 'nl-NL' / junk to a locale Intl accepts; nl-NL is the fallback. */
export function resolveLocale(locale = 'nl-NL'): string {
  const cached = localeCache.get(locale);
  if (cached) return cached;
  let resolved = 'nl-NL';
  try {
    resolved = Intl.NumberFormat.supportedLocalesOf(locale.replace('_', '-'))[0] ?? 'nl-NL';
  } catch {
    // an invalid tag falls back to nl-NL
  }
  if (localeCache.size < 100) localeCache.set(locale, resolved);
  return resolved;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * One Intl.NumberFormat per locale and options, kept: making one costs far more than formatting
 * with it (an export formats every amount of every row).
 */
export function numberFormat(
  locale: string | undefined,
  options: Intl.NumberFormatOptions,
): Intl.NumberFormat {
  // the same options object asked again (the amount field keeps its options): no key to build
  const ofOptions = numberFormatsByOptions.get(options);
  const known = ofOptions?.get(locale);
  if (known) return known;
  const format = numberFormatByKey(locale, options);
  if (ofOptions) ofOptions.set(locale, format);
  else numberFormatsByOptions.set(options, new Map([[locale, format]]));
  return format;
}

const numberFormatsByOptions = new WeakMap<
  Intl.NumberFormatOptions,
  Map<string | undefined, Intl.NumberFormat>
>();

function numberFormatByKey(locale: string | undefined, options: Intl.NumberFormatOptions) {
  const resolved = resolveLocale(locale);
  let key = resolved;
  for (const name in options) key += `\u0000${name}=${options[name as keyof Intl.NumberFormatOptions]}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(resolved, options);
    if (numberFormats.size < 500) numberFormats.set(key, format);
  }
  return format;
}

const NO_BREAK_SPACE = /[\u00a0\u202f]/;
const NO_BREAK_SPACES = /[\u00a0\u202f]/g;

export function formatNumber(value: number, locale: string | undefined, options: Intl.NumberFormatOptions) {
  // Plain spaces instead of Intl's (narrow) no-break spaces: exports and comparisons stay simple.
  const text = numberFormat(locale, options).format(value);
  return NO_BREAK_SPACE.test(text) ? text.replace(NO_BREAK_SPACES, ' ') : text;
}

const YES_NO: Record<string, [string, string]> = {
  nl: ['Ja', 'Nee'],
  en: ['Yes', 'No'],
  de: ['Ja', 'Nein'],
  fr: ['Oui', 'Non'],
  es: ['Sí', 'No'],
  ru: ['Да', 'Нет'],
};

export function formatBoolean(value: boolean, locale?: string): string {
  const pair = YES_NO[resolveLocale(locale).slice(0, 2)] ?? YES_NO.en;
  return value ? pair[0] : pair[1];
}

/** Parses "1.234,56", "1234.56", "1,5", "1 000" (the amount input's digits, dot, comma and space). */
export function parseLocaleNumber(text: string): number | null {
  let s = text.replace(/[\s\u00a0]/g, '');
  if (!/^-?[\d.,]+$/.test(s) || !/\d/.test(s)) return null;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  const count = (ch: string) => s.split(ch).length - 1;
  if (lastDot >= 0 && lastComma >= 0) {
    // the later separator is the decimal one
    const [thousands, decimal] = lastComma > lastDot ? ['.', ','] : [',', '.'];
    if (count(decimal) > 1) return null;
    s = s.split(thousands).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    s = count(',') > 1 ? s.split(',').join('') : s.replace(',', '.');
  } else if (count('.') > 1) {
    s = s.split('.').join('');
  }
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** Rounds half away from zero, free of binary surprises like 1.005. */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** Math.abs(digits);
  const scaled = digits >= 0 ? Math.abs(value) * factor : Math.abs(value) / factor;
  const rounded = Math.round(Number(scaled.toPrecision(15)));
  const result = digits >= 0 ? rounded / factor : rounded * factor;
  return value < 0 && result !== 0 ? -result : result;
}

export function ctxNow(ctx?: FieldContext): Date {
  return ctx?.now ?? new Date();
}

/** The capabilities most types share: the value is kept in `values` and a new dossier starts empty. */
export const inValues = (): ValueSource => ({ from: 'values' });
export const noDefault = () => null;
