import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { asText, fail, inValues, isEmpty, MESSAGES, noDefault, ok } from './shared';
import type { FieldType } from './types';

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_MESSAGE = 'Enter a valid e-mail address';

const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}$/u;

export const emailSettingsSchema = z.object({});
export type EmailSettings = z.output<typeof emailSettingsSchema>;

export const emailField: FieldType<typeof emailSettingsSchema, string> = {
  type: 'email',
  settingsSchema: emailSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => z.string().max(EMAIL_MAX_LENGTH).regex(EMAIL_PATTERN).nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    const email = asText(raw)?.trim();
    if (email === undefined) return fail(MESSAGES.text);
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return fail(EMAIL_MESSAGE);
    const at = email.lastIndexOf('@');
    return ok(email.slice(0, at) + email.slice(at).toLowerCase()); // domains are case-insensitive
  },
  operators: OPERATORS_BY_FIELD_TYPE.email,
  aggregations: ['count'],
  sortable: () => true,
  format: (value) => value ?? '',
  sqlCast: () => 'text',
};
