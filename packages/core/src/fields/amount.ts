import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import {
  fail,
  flag,
  formatNumber,
  inValues,
  isEmpty,
  MESSAGES,
  noDefault,
  numberFormat,
  ok,
  parseLocaleNumber,
  roundTo,
} from './shared';
import type { FieldType } from './types';

// Union of the currencies offered (document 3) and the symbols known (document 2).
export const CURRENCIES = [
  'COP',
  'CRC',
  'EUR',
  'GBP',
  'ILS',
  'INR',
  'JPY',
  'KRW',
  'MAD',
  'NGN',
  'PHP',
  'PLN',
  'PYG',
  'THB',
  'USD',
  'UAH',
  'VND',
] as const;

/** Largest amount kept: beyond it doubles lose cents. */
export const AMOUNT_MAX = 1e15;
export const AMOUNT_MESSAGES = {
  number: MESSAGES.number,
  tooLarge: 'The amount is too large',
} as const;

export const amountSettingsSchema = z.object({
  valueType: z.enum(['number', 'currency', 'percentage']).default('number'),
  decimals: z.number().int().min(0).max(10).default(2),
  currency: z.enum(CURRENCIES).default('EUR'),
  // search view
  show_slider: flag(),
  max_slider: z.number().positive().default(1000),
});
export type AmountSettings = z.output<typeof amountSettingsSchema>;

/** Spec document 2: the symbols of the known currencies (others use Intl's narrow symbol);
 * the editor and every formatted amount show the same one. */
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  USD: '$',
  COP: '$',
  EUR: '€',
  CRC: '₡',
  GBP: '£',
  ILS: '₪',
  INR: '₹',
  JPY: '¥',
  KRW: '₩',
  NGN: '₦',
  PHP: '₱',
  PLN: 'zł',
  PYG: '₲',
  THB: '฿',
  UAH: '₴',
  VND: '₫',
};

const KEPT_OPTIONS = new Map<string, Intl.NumberFormatOptions>();

/** The same options object for the same key every time: numberFormat() finds its format by it. */
function keptOptions(key: string, make: () => Intl.NumberFormatOptions): Intl.NumberFormatOptions {
  let options = KEPT_OPTIONS.get(key);
  if (!options) {
    options = make();
    KEPT_OPTIONS.set(key, options);
  }
  return options;
}

const digitsOptions = (decimals: number) =>
  keptOptions(`digits ${decimals}`, () => ({
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }));

/** An amount with the currency's symbol (CURRENCY_SYMBOLS), placed where the locale puts it. */
function formatCurrency(
  value: number,
  locale: string | undefined,
  currency: string,
  decimals: number,
): string {
  const options = keptOptions(`currency ${currency} ${decimals}`, () => ({
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    ...digitsOptions(decimals),
  }));
  const parts = numberFormat(locale, options).formatToParts(value);
  const symbol = CURRENCY_SYMBOLS[currency];
  return parts
    .map((part) => (part.type === 'currency' && symbol ? symbol : part.value))
    .join('')
    .replace(/[\u00a0\u202f]/g, ' ');
}

export const amountField: FieldType<typeof amountSettingsSchema, number> = {
  type: 'amount',
  settingsSchema: amountSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: (settings) =>
    z
      .number()
      .gt(-AMOUNT_MAX)
      .lt(AMOUNT_MAX)
      .refine((v) => roundTo(v, settings.decimals) === v, `At most ${settings.decimals} decimals`)
      .nullable(),
  normalise(raw, settings) {
    if (isEmpty(raw)) return ok(null);
    let n: number | null = null;
    if (typeof raw === 'number') n = Number.isFinite(raw) ? raw : null;
    // Digits, dot, comma and space (as the input allows); a percentage may end in '%'.
    else if (typeof raw === 'string')
      n = parseLocaleNumber(settings.valueType === 'percentage' ? raw.replace(/%\s*$/, '') : raw);
    if (n === null) return fail(AMOUNT_MESSAGES.number);
    if (Math.abs(n) >= AMOUNT_MAX) return fail(AMOUNT_MESSAGES.tooLarge);
    return ok(roundTo(n, settings.decimals) || 0); // no -0
  },
  operators: OPERATORS_BY_FIELD_TYPE.amount,
  aggregations: ['sum', 'avg', 'min', 'max', 'count'],
  sortable: () => true,
  format(value, settings, locale) {
    if (typeof value !== 'number') return '';
    const { decimals } = settings;
    if (settings.valueType === 'currency') return formatCurrency(value, locale, settings.currency, decimals);
    if (settings.valueType === 'percentage') {
      const percent = keptOptions(`percent ${decimals}`, () => ({
        style: 'percent',
        ...digitsOptions(decimals),
      }));
      return formatNumber(value / 100, locale, percent);
    }
    return formatNumber(value, locale, digitsOptions(decimals));
  },
  sqlCast: () => 'numeric',
};
