import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, inValues, isEmpty, MESSAGES, noDefault, ok } from './shared';
import type { FieldType } from './types';

// Rich text (HTML). Sanitising for display is the web's job (DOMPurify); here only a size cap.
export const TEXTAREA_MAX_LENGTH = 100_000;

export const textareaSettingsSchema = z.object({});
export type TextareaSettings = z.output<typeof textareaSettingsSchema>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Plain text of rich text, for lists, exports and logs. */
export function htmlToText(html: string): string {
  let text = html.replace(/<(br|\/p|\/div|\/li|\/tr)\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, '');
  // the passes below only where they can change something: an export strips every rich text value
  if (text.includes('&'))
    text = text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]);
  text = text.replace(/[ \t]{2,}|\t/g, ' ');
  if (text.includes('\n')) text = text.replace(/\s*\n\s*/g, '\n');
  return text.trim();
}

export const textareaField: FieldType<typeof textareaSettingsSchema, string> = {
  type: 'textarea',
  settingsSchema: textareaSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => z.string().max(TEXTAREA_MAX_LENGTH).nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    if (typeof raw !== 'string') return fail(MESSAGES.text);
    if (raw.length > TEXTAREA_MAX_LENGTH) return fail(MESSAGES.tooLong(TEXTAREA_MAX_LENGTH));
    // An editor's empty paragraph is no value.
    return htmlToText(raw) === '' && !/<img\b/i.test(raw) ? ok(null) : ok(raw);
  },
  operators: OPERATORS_BY_FIELD_TYPE.textarea,
  aggregations: ['count'],
  sortable: () => false, // spec: only non-textarea fields are sortable
  format: (value) => (value ? htmlToText(value) : ''),
  sqlCast: () => 'text',
};
