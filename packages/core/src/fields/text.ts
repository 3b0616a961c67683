import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { asText, fail, flag, inValues, isEmpty, MESSAGES, noDefault, ok } from './shared';
import type { FieldType } from './types';

export const TEXT_MAX_LENGTH = 255;

/** The spec's preset patterns offered in the text settings. */
export const TEXT_REGEX_PRESETS = {
  numbers_only: '^[0-9]*$',
  dutch_zipcode: '^[1-9][0-9]{3} ?[A-Za-z]{2}$',
  municipal_code: '^[0-9]{4}$',
  denomination: '^[0-9]+([.,][0-9]{1,2})?$',
} as const;

export const TEXT_VALIDATORS = ['BSN', 'IBAN', 'UniqueValue'] as const;

export const TEXT_MESSAGES = {
  pattern: 'The value does not match the required format',
  bsn: 'Enter a valid BSN',
  iban: 'Enter a valid IBAN',
} as const;

function compiles(pattern: string) {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export const textSettingsSchema = z.object({
  regex: z.string().max(500).refine(compiles, 'Invalid regular expression').default(''),
  size: z.number().int().min(1).max(TEXT_MAX_LENGTH).default(100),
  // UniqueValue needs the database: the server checks it, normalise does not.
  validators: z.array(z.enum(TEXT_VALIDATORS)).default([]),
  phone_number: flag(),
});
export type TextSettings = z.output<typeof textSettingsSchema>;

/** Dutch citizen service number: 9 digits passing the eleven test (8 digits get a leading zero). */
export function isValidBsn(value: string): boolean {
  const digits = value.padStart(9, '0');
  if (!/^\d{9}$/.test(digits) || digits === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * (9 - i);
  return (sum - Number(digits[8])) % 11 === 0;
}

export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    remainder = (remainder * (n > 9 ? 100 : 10) + n) % 97;
  }
  return remainder === 1;
}

export const textField: FieldType<typeof textSettingsSchema, string> = {
  type: 'text',
  settingsSchema: textSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => z.string().max(TEXT_MAX_LENGTH).nullable(),
  normalise(raw, settings) {
    if (isEmpty(raw)) return ok(null);
    const text = asText(raw)?.trim();
    if (text === undefined) return fail(MESSAGES.text);
    if (text.length > TEXT_MAX_LENGTH) return fail(MESSAGES.tooLong(TEXT_MAX_LENGTH));
    if (settings.regex && !new RegExp(settings.regex).test(text)) return fail(TEXT_MESSAGES.pattern);
    if (settings.validators.includes('BSN') && !isValidBsn(text)) return fail(TEXT_MESSAGES.bsn);
    if (settings.validators.includes('IBAN')) {
      if (!isValidIban(text)) return fail(TEXT_MESSAGES.iban);
      return ok(text.replace(/\s/g, '').toUpperCase());
    }
    return ok(text);
  },
  operators: OPERATORS_BY_FIELD_TYPE.text,
  aggregations: ['count'],
  sortable: () => true,
  format: (value) => value ?? '',
  sqlCast: () => 'text',
};
