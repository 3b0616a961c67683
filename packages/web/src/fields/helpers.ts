import {
  CURRENCY_SYMBOLS,
  type DateSettings,
  type DisplayItem,
  displayItemRows,
  emailField,
  type FieldContext,
  fieldSettingsOf,
  fieldTypeOf,
  fieldTypes,
  getFieldType,
  isFieldTypeName,
  type ListOption,
  parseDateOnly,
  parseDateTime,
  parseFieldSettings,
  TEXT_REGEX_PRESETS,
  type TextSettings,
  todayYmd,
  type Ymd,
  ymdToIso,
} from '@dossierbase/core';

// Pure glue between the core field registry and the field components (no React, no DOM).

/** The product formats numbers, amounts and dates the Dutch way whatever the UI language. */
export const FORMAT_LOCALE = 'nl-NL';

/** Spec section 9: link options page 25, link search 50; debounces for link options and users. */
export const LINK_PAGE_SIZE = 25;
export const LINK_SEARCH_SIZE = 50;
export const LINK_DEBOUNCE_MS = 500;
export const USER_DEBOUNCE_MS = 300;
/** Rich text preview cut-off (spec section 5): 160 characters in list mode, 450 otherwise. */
export const RICH_TEXT_PREVIEW = { list: 160, detail: 450 } as const;

/** The field type of a display item: 'link' for links, null for dossier data and blocks. */
export function itemFieldType(item: DisplayItem): string | null {
  return fieldTypeOf(displayItemRows(item));
}

/**
 * The settings of a display item's field as the server applies them: base field, data field and
 * display item merged and parsed by core (parseFieldSettings).
 */
export function itemSettings(item: DisplayItem): Record<string, unknown> {
  return fieldSettingsOf(displayItemRows(item));
}

/** List/tree options the server sent with the item (already filtered for the user's roles). */
export function itemOptions(item: DisplayItem | undefined): ListOption[] {
  const field = item?.def_dossier_def_field?.def_field as { def_field_lists?: ListOption[] } | undefined;
  return [...(field?.def_field_lists ?? [])].sort((a, b) => a.rank - b.rank);
}

/** Exact culture, then the same language, then the first translation. */
export function pickCulture<T extends { culture: string }>(
  list: readonly T[],
  locale: string,
): T | undefined {
  const language = locale.slice(0, 2);
  return (
    list.find((tr) => tr.culture === locale) ??
    list.find((tr) => tr.culture?.slice(0, 2) === language) ??
    list[0]
  );
}

export function optionLabel(option: ListOption, locale: string): string {
  return pickCulture(option.translations, locale)?.text ?? `#${option.id}`;
}

/** The item's translated name (the label above the input). */
export function itemLabel(item: DisplayItem, locale: string): string {
  return (
    pickCulture(item.translations, locale)?.name ||
    item.def_dossier_def_field?.name ||
    item.def_dossier_link?.name ||
    ''
  );
}

/** Is the item's field or link obligatory (conditions may add more; the page passes `required`). */
export function itemObligatory(item: DisplayItem): boolean {
  return Boolean(item.def_dossier_def_field?.obligatory || item.def_dossier_link?.obligatory);
}

/** Runs the registry's normalise; the message is the registry's own. */
export function validateFieldValue(
  type: string,
  raw: unknown,
  settings: unknown,
  ctx?: FieldContext,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!isFieldTypeName(type)) return { ok: false, message: 'Unknown field type' };
  return getFieldType(type).normalise(raw, parseFieldSettings(type, settings), ctx);
}

/**
 * Passes an editor's raw value through the registry's normalise: a valid value goes to onChange, an
 * invalid one's message to onInvalid; answers the message (null when valid) for the editor's own display.
 */
export function emitNormalised(
  props: {
    onChange: (value: never) => void;
    onInvalid?: (message: string | null) => void;
    settings: unknown;
    ctx?: FieldContext;
  },
  type: string,
  raw: unknown,
): string | null {
  const result = validateFieldValue(type, raw, props.settings, props.ctx);
  if (!result.ok) {
    props.onInvalid?.(result.message);
    return result.message;
  }
  props.onInvalid?.(null);
  (props.onChange as (value: unknown) => void)(result.value);
  return null;
}

/** The registry's format, with the platform locale fallback (nl-NL). */
export function formatFieldValue(
  type: string,
  value: unknown,
  settings: unknown,
  locale = 'nl-NL',
  ctx?: FieldContext,
): string {
  if (!isFieldTypeName(type) || value === undefined) return '';
  return getFieldType(type).format(value, parseFieldSettings(type, settings), toIntlLocale(locale), ctx);
}

/** 'nl_NL' -> 'nl-NL' (Intl wants a dash). */
export function toIntlLocale(locale: string | null | undefined): string {
  return (locale || 'nl-NL').replace('_', '-');
}

export function operatorsOf(type: string) {
  return isFieldTypeName(type) ? fieldTypes[type].operators : [];
}

// ---------- input filters and masks

export const digitsOnly = (text: string) => text.replace(/\D/g, '');

/** Amount/number input: digits, dot, comma and space only (percentage thereby also rejects 'e'). */
export const filterAmountInput = (text: string) => text.replace(/[^\d., ]/g, '');

/** Phone numbers: digits, a leading +, spaces, dashes and brackets. */
export function filterPhoneInput(text: string): string {
  const kept = text.replace(/[^\d+\s()-]/g, '');
  return kept.slice(0, 1) + kept.slice(1).replace(/\+/g, '');
}

export type TextMask = 'none' | 'digits' | 'municipal' | 'zipcode' | 'denomination' | 'phone';

/** Which input filter a text field's settings ask for (a preset regex or phone_number). */
export function textMaskOf(settings: Pick<TextSettings, 'regex' | 'phone_number'>): TextMask {
  if (settings.phone_number) return 'phone';
  switch (settings.regex) {
    case TEXT_REGEX_PRESETS.numbers_only:
      return 'digits';
    case TEXT_REGEX_PRESETS.municipal_code:
      return 'municipal';
    case TEXT_REGEX_PRESETS.dutch_zipcode:
      return 'zipcode';
    case TEXT_REGEX_PRESETS.denomination:
      return 'denomination';
    default:
      return 'none';
  }
}

/** Filters typed text for a mask; the regex check itself stays with the registry's normalise. */
export function applyTextMask(mask: TextMask, text: string): string {
  switch (mask) {
    case 'digits':
      return digitsOnly(text);
    case 'municipal':
      return digitsOnly(text).slice(0, 4);
    case 'phone':
      return filterPhoneInput(text);
    case 'zipcode': {
      // 1234 AB: four digits (first not 0), a space, two letters in upper case
      const compact = text.replace(/\s/g, '').toUpperCase();
      const digits = compact.match(/^[1-9]\d{0,3}/)?.[0] ?? '';
      if (digits.length < 4) return digits;
      const letters = (compact.slice(4).match(/^[A-Z]{0,2}/)?.[0] ?? '').slice(0, 2);
      return letters || text.endsWith(' ') ? `${digits} ${letters}` : digits;
    }
    case 'denomination': {
      const m = /^(\d*)(?:([.,])(\d{0,2}))?/.exec(text.replace(/[^\d.,]/g, ''));
      if (!m) return '';
      return m[2] !== undefined ? `${m[1]}${m[2]}${m[3] ?? ''}` : m[1];
    }
    default:
      return text;
  }
}

/** DD-MM-YYYY (and ' HH:mm' with time) as the user types digits. */
export function applyDateMask(text: string, withTime = false): string {
  const digits = digitsOnly(text).slice(0, withTime ? 12 : 8);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i === 2 || i === 4) out += '-';
    if (i === 8) out += ' ';
    if (i === 10) out += ':';
    out += digits[i];
  }
  return out;
}

/**
 * HH:mm as the user types: digits and one colon. Without disable_limit the colon comes after two
 * digits; with it (durations) the user types the colon after up to four hour digits. Digits that
 * cannot start a valid time are refused: hours above 23 (unless disable_limit), minutes above 59.
 */
export function applyTimeMask(text: string, disableLimit = false): string {
  const cleaned = text.replace(/[^\d:]/g, '');
  const colon = cleaned.indexOf(':');
  const maxHours = disableLimit ? 4 : 2;
  let hours: string;
  let minutes: string | null;
  if (colon >= 0) {
    hours = cleaned.slice(0, colon).slice(0, maxHours);
    minutes = digitsOnly(cleaned.slice(colon + 1)).slice(0, 2);
  } else if (disableLimit || cleaned.length <= 2) {
    hours = cleaned.slice(0, maxHours);
    minutes = null;
  } else {
    hours = cleaned.slice(0, 2);
    minutes = cleaned.slice(2, 4);
  }
  if (!disableLimit && hours.length === 2 && Number(hours) > 23) hours = hours.slice(0, 1);
  if (minutes !== null && minutes !== '' && minutes[0] > '5') minutes = '';
  return minutes === null ? hours : `${hours}:${minutes}`;
}

// ---------- dates

/** A stored date value as the editor's text ('DD-MM-YYYY' or 'DD-MM-YYYY HH:mm'). */
export function dateToInput(value: unknown, settings: Pick<DateSettings, 'withtime'>): string {
  if (typeof value !== 'string' || value === '') return '';
  return fieldTypes.date.format(value, parseFieldSettings('date', settings));
}

/** The Amsterdam calendar day of a stored date value. */
export function dateValueYmd(value: unknown): Ymd | null {
  if (typeof value !== 'string') return null;
  const day = parseDateOnly(value);
  if (day) return day;
  const instant = parseDateTime(value);
  return instant ? todayYmd(instant) : null;
}

function addUnits(day: Ymd, count: number, unit: 'day' | 'week' | 'month' | 'year'): Ymd {
  const d = new Date(Date.UTC(2000, 0, 1));
  d.setUTCFullYear(day.year, day.month - 1, day.day);
  if (unit === 'day') d.setUTCDate(d.getUTCDate() + count);
  if (unit === 'week') d.setUTCDate(d.getUTCDate() + count * 7);
  if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + count);
  if (unit === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * Deadline colour of a date: a reminder "n units before" colours the date from n units before it,
 * "n units after" from n units after it. The reminder whose moment came last wins.
 */
export function deadlineColor(
  value: unknown,
  reminders: DateSettings['deadline'],
  now: Date = new Date(),
): string | null {
  const day = dateValueYmd(value);
  if (!day) return null;
  const today = ymdToIso(todayYmd(now));
  let best: { from: string; color: string } | null = null;
  for (const r of reminders) {
    if (!r.color) continue;
    const from = ymdToIso(addUnits(day, r.when === 'before' ? -r.number : r.number, r.type));
    if (from <= today && (!best || from > best.from)) best = { from, color: r.color };
  }
  return best?.color ?? null;
}

/** Whole days from today (Amsterdam) to a date: negative in the past. */
export function daysFromToday(value: unknown, now: Date = new Date()): number | null {
  const day = dateValueYmd(value);
  if (!day) return null;
  const t = todayYmd(now);
  return Math.round(
    (Date.UTC(day.year, day.month - 1, day.day) - Date.UTC(t.year, t.month - 1, t.day)) / 864e5,
  );
}

/** "3 days ago" / "in 2 months" in the UI language (show_ago). */
export function agoText(value: unknown, locale: string, now: Date = new Date()): string {
  const days = daysFromToday(value, now);
  if (days === null) return '';
  const rtf = new Intl.RelativeTimeFormat(toIntlLocale(locale), { numeric: 'auto' });
  const abs = Math.abs(days);
  if (abs < 7) return rtf.format(days, 'day');
  if (abs < 31) return rtf.format(Math.trunc(days / 7), 'week');
  if (abs < 365) return rtf.format(Math.trunc(days / 30), 'month');
  return rtf.format(Math.trunc(days / 365), 'year');
}

/** Spec: the age slider of a date search (show_slider) runs from 18 to 120 years. */
export const AGE_SLIDER = { min: 18, max: 120 } as const;

function shiftYmd(day: Ymd, years: number, days = 0): string {
  return ymdToIso(addUnits(addUnits(day, years, 'year'), days, 'day'));
}

/**
 * Birth dates of people aged `min` to `max` years today (Amsterdam): from the day after the
 * (max + 1)th birthday bound to the min-th birthday bound, as the date_between value 'from,to'.
 */
export function ageRangeToDates([min, max]: readonly [number, number], now: Date = new Date()): string {
  const today = todayYmd(now);
  return `${shiftYmd(today, -(max + 1), 1)},${shiftYmd(today, -min)}`;
}

/** The age range a date_between value stands for (the slider's position), or null. */
export function datesToAgeRange(value: unknown, now: Date = new Date()): [number, number] | null {
  const [from, to] = splitRange(value);
  const a = parseDateOnly(from);
  const b = parseDateOnly(to);
  if (!a || !b) return null;
  const today = todayYmd(now);
  const age = (born: Ymd) =>
    today.year -
    born.year -
    (today.month < born.month || (today.month === born.month && today.day < born.day) ? 1 : 0);
  return [age(b), age(addUnits(a, -1, 'day')) - 1];
}

/** A search date typed as DD-MM-YYYY to the operators' ISO 'YYYY-MM-DD' (or null). */
export function searchDateToIso(text: string): string | null {
  const day = parseDateOnly(text.trim());
  return day ? ymdToIso(day) : null;
}

// ---------- rich text

/** Preview of plain text: cut at a word boundary near `max`, with whether it was cut. */
export function previewText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const slice = text.slice(0, max);
  const space = slice.lastIndexOf(' ');
  return { text: `${(space > max * 0.6 ? slice.slice(0, space) : slice).trimEnd()}…`, cut: true };
}

// ---------- links and ids

/** The ids of a single or multiple id value, for pickers. */
export function idsOf(value: unknown): number[] {
  if (value === null || value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((v) => (typeof v === 'object' && v !== null ? (v as { id: unknown }).id : v))
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** Picker output back to the stored shape: an id, ids, or null. */
export function idsToValue(ids: readonly number[], multiple: boolean): number | number[] | null {
  if (ids.length === 0) return null;
  return multiple ? [...ids] : ids[0];
}

/** Page size for the link picker: 50 when searching, 25 when paging through all. */
export function linkPageSize(search: string): number {
  return search.trim() ? LINK_SEARCH_SIZE : LINK_PAGE_SIZE;
}

export function dossierHref(id: number): string {
  return `/contentdossier/${id}`;
}

/** http(s) links only; the registry's normalise already refuses other schemes on input. */
export function safeHref(url: unknown): string | null {
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null;
}

/** A mailto: link only for a valid address: anything else stored in an e-mail field stays text. */
export function mailtoHref(email: unknown): string | null {
  return typeof email === 'string' && emailField.valueSchema({}).safeParse(email).success
    ? `mailto:${email}`
    : null;
}

// ---------- amounts

/** The currency symbol or % beside an amount input, in the locale's position. */
export function amountAffix(
  settings: { valueType: 'number' | 'currency' | 'percentage'; currency: string },
  locale = 'nl-NL',
): { prefix: string; suffix: string } {
  if (settings.valueType === 'percentage') return { prefix: '', suffix: '%' };
  if (settings.valueType !== 'currency') return { prefix: '', suffix: '' };
  const parts = new Intl.NumberFormat(toIntlLocale(locale), {
    style: 'currency',
    currency: settings.currency,
    currencyDisplay: 'narrowSymbol',
  }).formatToParts(1);
  const at = parts.findIndex((p) => p.type === 'currency');
  const first = parts.findIndex((p) => p.type === 'integer');
  const symbol = CURRENCY_SYMBOLS[settings.currency] ?? parts[at]?.value ?? settings.currency;
  return at < first ? { prefix: symbol, suffix: '' } : { prefix: '', suffix: symbol };
}

/** A stored amount as editable text: nl-NL decimal comma, no thousands separators. */
export function amountToInput(value: unknown, decimals: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return value.toFixed(decimals).replace('.', ',');
}

// ---------- search operators

const RELATIVE = /^date_(add|subtract)_(max|min)_(days|weeks|months|years|days_to_go)$/;

/** i18n key and parameters of an operator's label (relative date operators share one template). */
export function operatorLabelKey(operator: string): {
  key: string;
  parts?: { dir: string; bound: string; unit: string };
} {
  const m = RELATIVE.exec(operator);
  if (m) {
    return {
      key: 'fields.operators.relative',
      parts: {
        dir: `fields.operators.dir_${m[1]}`,
        bound: `fields.operators.bound_${m[2]}`,
        unit: `fields.operators.unit_${m[3]}`,
      },
    };
  }
  return { key: `fields.operators.${operator}` };
}

/** Splits a stored "a,b" range value for the two inputs. */
export function splitRange(value: unknown): [string, string] {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
  return [parts[0]?.trim() ?? '', parts[1]?.trim() ?? ''];
}
