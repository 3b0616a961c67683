import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { asText, fail, inValues, isEmpty, MESSAGES, noDefault, ok } from './shared';
import type { FieldType } from './types';

export const URL_MAX_LENGTH = 2048;
export const URL_MESSAGE = 'Enter a valid URL (http or https)';

// Only http(s): javascript:, data: and friends never reach a link's href.
const URL_PATTERN =
  /^https?:\/\/(?:[^\s/?#@]+@)?(?:localhost|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}]{2,}|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/iu;

export const urlSettingsSchema = z.object({});
export type UrlSettings = z.output<typeof urlSettingsSchema>;

export const urlField: FieldType<typeof urlSettingsSchema, string> = {
  type: 'url',
  settingsSchema: urlSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => z.string().max(URL_MAX_LENGTH).regex(URL_PATTERN).nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    let url = asText(raw)?.trim();
    if (url === undefined) return fail(MESSAGES.text);
    if (url.length > URL_MAX_LENGTH) return fail(MESSAGES.tooLong(URL_MAX_LENGTH));
    // "www.example.com" gets a scheme; any other scheme is refused below.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) url = `https://${url}`;
    return URL_PATTERN.test(url) ? ok(url) : fail(URL_MESSAGE);
  },
  operators: OPERATORS_BY_FIELD_TYPE.url,
  aggregations: ['count'],
  sortable: () => true,
  format: (value) => value ?? '',
  sqlCast: () => 'text',
};
