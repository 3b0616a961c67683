import { z } from 'zod';
import { MAX_INT4 } from '../api/common';
import type { FieldTypeName } from './types';

// One map of query-condition operators per field type (spec document 1, section 5), read by the
// query builder's pickers, the server's validation and the SQL compiler alike.

/** What a condition's `value` holds for an operator. */
export type OperatorValueKind =
  | 'none' // read-only: the empty / not-empty operators
  | 'text'
  | 'number'
  | 'date' // a date, or NULL / NOT NULL
  | 'date_range' // two dates, comma separated
  | 'count' // a whole number of units relative to today
  | 'count_range' // two whole numbers, comma separated
  | 'option' // a list option id, or EMPTY
  | 'options' // list option ids
  | 'user'; // a user id, CURRENT_USER or empty

const STRING_OPERATORS = [
  'string_empty',
  'string_is_not_empty',
  'string_exact_equals',
  'string_exact_not_equals',
  'string_like_equals',
  'string_not_like_equals',
] as const;
const NUMBER_OPERATORS = [
  'number_equals',
  'number_not_equals',
  'number_gt',
  'number_gte',
  'number_lt',
  'number_lte',
] as const;
const DATE_COMPARE_OPERATORS = [
  'equals',
  'not_equals',
  'date_gt',
  'date_gte',
  'date_lt',
  'date_lte',
] as const;
const RELATIVE_UNITS = ['days', 'weeks', 'months', 'years', 'days_to_go'] as const;
const BETWEEN_OPERATORS = ['between_days', 'between_weeks', 'between_months', 'between_years'] as const;

/** "add and subtract variants (max or min of days, weeks, months, years, days_to_go)". */
export type RelativeDateOperator =
  `date_${'add' | 'subtract'}_${'max' | 'min'}_${(typeof RELATIVE_UNITS)[number]}`;
const RELATIVE_DATE_OPERATORS: RelativeDateOperator[] = (['add', 'subtract'] as const).flatMap((dir) =>
  (['max', 'min'] as const).flatMap((bound) =>
    RELATIVE_UNITS.map((unit): RelativeDateOperator => `date_${dir}_${bound}_${unit}`),
  ),
);

export type OperatorName =
  | (typeof STRING_OPERATORS)[number]
  | (typeof NUMBER_OPERATORS)[number]
  | (typeof DATE_COMPARE_OPERATORS)[number]
  | RelativeDateOperator
  | 'date_between'
  | (typeof BETWEEN_OPERATORS)[number]
  | 'birthday_weeks'
  | 'in';

function kinds<N extends string>(names: readonly N[], kind: OperatorValueKind) {
  return Object.fromEntries(names.map((n) => [n, kind])) as Record<N, OperatorValueKind>;
}

/** Value kind per operator. `equals`/`not_equals` are shared by date, list and user fields. */
export const OPERATOR_VALUE_KINDS: Readonly<Record<OperatorName, OperatorValueKind>> = {
  ...kinds(STRING_OPERATORS, 'text'),
  string_empty: 'none',
  string_is_not_empty: 'none',
  ...kinds(NUMBER_OPERATORS, 'number'),
  ...kinds(DATE_COMPARE_OPERATORS, 'date'),
  ...kinds(RELATIVE_DATE_OPERATORS, 'count'),
  date_between: 'date_range',
  ...kinds(BETWEEN_OPERATORS, 'count_range'),
  birthday_weeks: 'count',
  in: 'options',
};

const TEXTUAL = [...STRING_OPERATORS, ...NUMBER_OPERATORS] as const;
const DATE = [
  ...DATE_COMPARE_OPERATORS,
  ...RELATIVE_DATE_OPERATORS,
  'date_between',
  ...BETWEEN_OPERATORS,
  'birthday_weeks',
] as const satisfies readonly OperatorName[];
const LIST = ['equals', 'not_equals', 'in'] as const;
// `in`: several users at once (the list's user filter)
const USER = ['equals', 'not_equals', 'in'] as const;

export const OPERATORS_BY_FIELD_TYPE: Readonly<Record<FieldTypeName, readonly OperatorName[]>> = {
  text: TEXTUAL,
  autoIncrement: TEXTUAL,
  calc: TEXTUAL,
  url: TEXTUAL,
  email: TEXTUAL,
  amount: TEXTUAL,
  textarea: ['string_empty', 'string_is_not_empty'],
  date: DATE,
  systemdate: DATE, // created_at / modified_at conditions
  list: LIST,
  tree: LIST, // a tree holds options like a list
  user: USER,
  systemuser: USER, // created_by / modified_by conditions
  // Not searchable through query conditions (links have their own link conditions).
  imageCode: [],
  time: ['string_empty', 'string_is_not_empty', 'string_exact_equals', 'string_exact_not_equals'],
  file: [],
  geolocation: [],
  link: [],
  customActionButton: [],
};

export function isOperatorAllowed(fieldType: FieldTypeName, operator: string): operator is OperatorName {
  return (OPERATORS_BY_FIELD_TYPE[fieldType] as readonly string[]).includes(operator);
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'Enter a valid date');
const wholeNumber = z.coerce.number().int('Enter a whole number').min(0).max(100_000);
const id = z.coerce.number().int().positive().max(MAX_INT4);
const split = (s: string) => s.split(',').map((p) => p.trim());
// "a,b": both parts must pass `item`
const pair = (item: z.ZodType) =>
  z
    .string()
    .refine((s) => {
      const parts = split(s);
      return parts.length === 2 && parts.every((p) => item.safeParse(p).success);
    }, 'Enter two values separated by a comma')
    .transform(split);

export const OPERATOR_VALUE_SCHEMAS: Readonly<Record<OperatorValueKind, z.ZodType>> = {
  none: z.unknown().transform(() => null),
  text: z.string().max(255),
  number: z.coerce.number().refine(Number.isFinite, 'Enter a valid number'),
  date: z.union([z.literal('NULL'), z.literal('NOT NULL'), isoDate]),
  date_range: pair(isoDate),
  count: wholeNumber,
  count_range: pair(wholeNumber),
  option: z.union([z.literal('EMPTY'), id]),
  // option, user or (for the system field id) dossier ids, which are bigint
  options: z
    .array(z.union([z.literal('EMPTY'), z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)]))
    .min(1),
  user: z.union([z.literal('CURRENT_USER'), z.literal(''), z.null(), id]),
};
