import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { asText, fail, inValues, isEmpty, MESSAGES, noDefault, ok } from './shared';
import type { FieldType } from './types';

export const IMAGE_CODE_TYPES = ['qrcode', 'code128', 'code39'] as const;

export const imageCodeSettingsSchema = z.object({
  imageType: z.enum(IMAGE_CODE_TYPES).default('qrcode'),
});
export type ImageCodeSettings = z.output<typeof imageCodeSettingsSchema>;

// What each symbology can encode (bwip-js renders it in the web).
const RULES = {
  qrcode: { max: 1000, pattern: /^[^\0]*$/, message: 'A QR code cannot hold this text' },
  code128: { max: 80, pattern: /^[\x20-\x7e]*$/, message: 'Code 128 allows only printable ASCII characters' },
  code39: {
    max: 43,
    pattern: /^[0-9A-Z .$/+%-]*$/,
    message: 'Code 39 allows only A-Z, 0-9, space and - . $ / + %',
  },
} as const;

export const imageCodeField: FieldType<typeof imageCodeSettingsSchema, string> = {
  type: 'imageCode',
  settingsSchema: imageCodeSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: (settings) =>
    z.string().max(RULES[settings.imageType].max).regex(RULES[settings.imageType].pattern).nullable(),
  normalise(raw, settings) {
    if (isEmpty(raw)) return ok(null);
    let text = asText(raw)?.trim();
    if (text === undefined) return fail(MESSAGES.text);
    const rule = RULES[settings.imageType];
    if (settings.imageType === 'code39') text = text.toUpperCase(); // code 39 has no lower case
    if (text.length > rule.max) return fail(MESSAGES.tooLong(rule.max));
    return rule.pattern.test(text) ? ok(text) : fail(rule.message);
  },
  operators: OPERATORS_BY_FIELD_TYPE.imageCode,
  aggregations: ['count'],
  sortable: () => true,
  format: (value) => value ?? '',
  sqlCast: () => 'text',
};
