import type { z } from 'zod';
import { type FieldSettings, fieldTypes, isFieldTypeName } from './registry';
import type { FieldTypeName } from './types';

// One rule for field settings, on the server and in the browser.
//
// A field's settings come in levels: the base field's (def_field), the data field's overrides
// (def_dossier_def_field) and the display item's overrides (display_item); a link's are the link's
// and then the display item's. Later levels override earlier ones key by key.
//
// Failure behaviour:
// - Reading never throws. The merged settings are parsed with the type's schema; when they do not
//   parse (old data, a changed type), each key is parsed on its own and a key whose value does not
//   parse takes the type's default. An unknown type has no settings ({}).
// - Writing is strict: the admin routes answer 400 with a message per 'settings.<key>' for settings
//   that do not parse (validateFieldSettings). A base field is checked whole and stored with its
//   defaults filled in; a data field's or display item's overrides are checked key by key for the
//   keys the type knows and stored as given (a display item keeps its other keys, such as
//   dossier_data or show_info_direct).

type Settings = Record<string, unknown>;

const isRecord = (value: unknown): value is Settings =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The levels merged in order, later keys winning; levels that are not objects count as empty. */
export function mergeSettings(...levels: unknown[]): Settings {
  let merged: Settings = {};
  // spread, not Object.assign: a stored "__proto__" key stays a plain key
  for (const level of levels) if (isRecord(level)) merged = { ...merged, ...level };
  return merged;
}

function schemaOf(type: FieldTypeName) {
  return fieldTypes[type].settingsSchema as z.ZodObject;
}

/** The type's schema applied to each key alone; a key that does not parse takes the default. */
function parseKeyByKey(schema: z.ZodObject, merged: Settings): Settings {
  const out: Settings = {};
  for (const [key, keySchema] of Object.entries(schema.shape)) {
    const own = (keySchema as z.ZodType).safeParse(merged[key]);
    const parsed = own.success ? own : (keySchema as z.ZodType).safeParse(undefined);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}

/**
 * The settings a field works with: `levels` (base field, data field, display item) merged and parsed
 * with the type's schema, defaults filled in. Never throws (see the failure behaviour above).
 */
export function parseFieldSettings<T extends FieldTypeName>(type: T, ...levels: unknown[]): FieldSettings<T>;
export function parseFieldSettings(type: string, ...levels: unknown[]): Settings;
export function parseFieldSettings(type: string, ...levels: unknown[]): Settings {
  if (!isFieldTypeName(type)) return {};
  const schema = schemaOf(type);
  const merged = mergeSettings(...levels);
  const whole = schema.safeParse(merged);
  return whole.success ? (whole.data as Settings) : parseKeyByKey(schema, merged);
}

export type SettingsCheck = { ok: true; settings: Settings } | { ok: false; errors: Record<string, string> };

function issuesToErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix: string[],
  errors: Record<string, string>,
) {
  for (const issue of issues) {
    const key = [...prefix, ...issue.path.map(String)].join('.');
    errors[key] ??= issue.message;
  }
}

/**
 * Settings an admin sends, checked for storing. `base`: a base field's settings, checked whole and
 * answered with the defaults filled in. `override`: a data field's or display item's settings, each key
 * the type knows checked alone (others kept as sent). Errors are keyed 'settings.<key>'.
 */
export function validateFieldSettings(
  type: string,
  settings: unknown,
  level: 'base' | 'override',
): SettingsCheck {
  if (!isFieldTypeName(type)) return { ok: true, settings: isRecord(settings) ? settings : {} };
  const schema = schemaOf(type);
  const errors: Record<string, string> = {};
  if (level === 'base') {
    const parsed = schema.safeParse(settings ?? {});
    if (parsed.success) return { ok: true, settings: parsed.data as Settings };
    issuesToErrors(parsed.error.issues, ['settings'], errors);
    return { ok: false, errors };
  }
  if (settings !== undefined && settings !== null && !isRecord(settings))
    return { ok: false, errors: { settings: 'Invalid settings' } };
  const out: Settings = { ...(settings ?? {}) };
  for (const [key, value] of Object.entries(out)) {
    if (!Object.hasOwn(schema.shape, key)) continue;
    const parsed = (schema.shape[key] as z.ZodType).safeParse(value);
    if (parsed.success) out[key] = parsed.data;
    else issuesToErrors(parsed.error.issues, ['settings', key], errors);
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, settings: out };
}
