import {
  type ConditionValue,
  type FieldCondition,
  type FieldTypeName,
  isOperatorAllowed,
  operatorValueSchema,
  parseDateTime,
  type SystemField,
  type Ymd,
  ymdToIso,
} from '@dossierbase/core';
import { type RawBuilder, sql } from 'kysely';
import { likeContains } from '../list-query';
import { summaryContainsSql, summaryExpression } from '../visible-summary';
import { type Column, DOSSIER_DATA, dataColumn } from './columns';

// One field condition (spec document 1 section 5, "Query conditions") as SQL over the dossier `alias`.
// Every value travels as a parameter; only expressions of our own configuration are SQL text.

export class QueryCompileError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const COMPILE_MESSAGES = {
  unknownField: 'Item not found',
  operator: 'This operator cannot be used for this field',
  value: 'Enter a valid value',
  depth: 'The query is nested too deeply',
  cycle: 'The query refers to itself',
  unknownLink: 'Unknown link',
  unknownQuery: 'Unknown query',
} as const;

export interface ConditionScope {
  /** SQL alias of the dossier the condition is about */
  alias: string;
  /** the reader's summary key of that dossier's entity */
  summaryKey: string | undefined;
  userId: number;
  /** today in Europe/Amsterdam */
  today: Ymd;
}

/** The column of a system field for the dossier `alias`. */
export function systemColumn(key: SystemField, alias: string, summaryKey: string | undefined): Column {
  const column = dataColumn(0, key, summaryKey);
  if (column.kind !== 'data') throw new Error('not a data column');
  const expression =
    key === 'summary'
      ? summaryExpression(alias, summaryKey)
      : DOSSIER_DATA[key].column.replace('content_dossier.', `${alias}.`);
  return { ...column, itemId: null, expression };
}

const addDays = ({ year, month, day }: Ymd, days: number): Ymd => {
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const addMonths = ({ year, month, day }: Ymd, months: number): Ymd => {
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day: Math.min(day, last) };
};
const shift = (from: Ymd, amount: number, unit: string): Ymd =>
  unit === 'weeks'
    ? addDays(from, 7 * amount)
    : unit === 'months'
      ? addMonths(from, amount)
      : unit === 'years'
        ? addMonths(from, 12 * amount)
        : addDays(from, amount);
const isoToYmd = (iso: string): Ymd => ({
  year: +iso.slice(0, 4),
  month: +iso.slice(5, 7),
  day: +iso.slice(8, 10),
});

/**
 * Conditions on a date compare with the start of a day: the stored ISO text of a date, or for a
 * date-time the instant Amsterdam's day starts (as stored text for a field, as timestamptz for the
 * dossier's own columns).
 */
function dayStart(column: Column, ymd: Ymd): RawBuilder<unknown> {
  const withTime = column.kind !== 'link' && column.cast === 'timestamptz';
  if (!withTime) return sql`${ymdToIso(ymd)}`;
  const instant = (parseDateTime(`${ymdToIso(ymd)}T00:00`) as Date).toISOString();
  return column.kind === 'data' ? sql`cast(${instant} as timestamptz)` : sql`${instant}`;
}

/** The days from..to (inclusive) as SQL over `expr`. */
function daysBetween(expr: RawBuilder<unknown>, column: Column, from: Ymd, to: Ymd): RawBuilder<boolean> {
  return sql<boolean>`(${expr} >= ${dayStart(column, from)} and ${expr} < ${dayStart(column, addDays(to, 1))})`;
}

/** A condition `cond` that is true, false or null (no value) as never null: not-conditions keep empties. */
const not = (cond: RawBuilder<boolean>) => sql<boolean>`not coalesce(${cond}, false)`;

function textOf(column: Column, expression: string): RawBuilder<string> {
  if (column.kind !== 'link' && column.cast === 'jsonb') return sql.raw(`(${expression} #>> '{}')`);
  if (
    column.kind !== 'link' &&
    (column.cast === 'numeric' || column.cast === 'bigint' || column.cast === 'interval')
  )
    return sql.raw(`(${expression})::text`);
  return sql.raw(expression);
}

/** The value as a number: the column itself when stored as one, else its text when it reads as one. */
function numberOf(column: Column, expression: string): RawBuilder<number> {
  if (column.kind !== 'link' && (column.cast === 'numeric' || column.cast === 'bigint'))
    return sql.raw(expression);
  const text = textOf(column, expression);
  return sql<number>`(case when ${text} ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' then (${text})::numeric end)`;
}

/** The empty value of a column as SQL (null, empty text, JSON null or empty list). */
function isEmpty(column: Column, expression: string): RawBuilder<boolean> {
  const expr = sql.raw(expression);
  if (column.kind !== 'link' && column.cast === 'jsonb')
    return sql<boolean>`(${expr} is null or ${expr} in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
  // stored values keep dates as text; the dossier's own date columns are timestamptz
  if (
    column.kind === 'field' &&
    (column.cast === 'text' || column.cast === 'date' || column.cast === 'timestamptz')
  )
    return sql<boolean>`(${expr} is null or ${expr} = '')`;
  return sql<boolean>`(${expr} is null)`;
}

/** One option, user or dossier id held by the column (several when it keeps a list). */
function holds(column: Column, expression: string, id: number): RawBuilder<boolean> {
  const expr = sql.raw(expression);
  if (column.kind === 'field' && column.cast === 'jsonb') {
    if (column.settings.multiple === true)
      return sql<boolean>`${expr} @> cast(${JSON.stringify([id])} as jsonb)`;
    return sql<boolean>`${expr} = cast(${JSON.stringify(id)} as jsonb)`;
  }
  return sql<boolean>`${expr} = ${id}`;
}

function holdsAny(column: Column, expression: string, values: (string | number)[]): RawBuilder<boolean> {
  const ids = values.filter((v): v is number => typeof v === 'number');
  const parts: RawBuilder<boolean>[] = [];
  if (values.includes('EMPTY')) parts.push(isEmpty(column, expression));
  if (ids.length) {
    const single = !(column.kind === 'field' && column.settings.multiple === true);
    if (single && column.kind === 'field' && column.cast === 'jsonb')
      parts.push(
        sql<boolean>`${sql.raw(expression)} in (${sql.join(ids.map((id) => sql`cast(${JSON.stringify(id)} as jsonb)`))})`,
      );
    else if (single) parts.push(sql<boolean>`${sql.raw(expression)} in (${sql.join(ids)})`);
    else parts.push(...ids.map((id) => holds(column, expression, id)));
  }
  return parts.length === 1 ? parts[0] : sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

function userValue(value: ConditionValue, scope: ConditionScope): number | 'EMPTY' {
  if (value === 'CURRENT_USER') return scope.userId;
  return typeof value === 'number' ? value : 'EMPTY';
}

const RELATIVE = /^date_(add|subtract)_(max|min)_(days|weeks|months|years|days_to_go)$/;
const BETWEEN = /^between_(days|weeks|months|years)$/;

/** The condition `condition` on `column` as SQL (the operator was checked against the column's type). */
export function compileCondition(
  condition: FieldCondition,
  column: Column,
  scope: ConditionScope,
): RawBuilder<boolean> {
  if (column.kind === 'link')
    throw new QueryCompileError(String(condition.id), COMPILE_MESSAGES.unknownField);
  const type: FieldTypeName = condition.id === 'id' ? 'autoIncrement' : column.type;
  // the dossier id compares as a number, or is one of a list of dossiers
  const allowed =
    isOperatorAllowed(type, condition.type) || (condition.id === 'id' && condition.type === 'in');
  if (!allowed) throw new QueryCompileError(String(condition.id), COMPILE_MESSAGES.operator);
  const parsed = operatorValueSchema(type, condition.type).safeParse(condition.value);
  if (!parsed.success)
    throw new QueryCompileError(
      String(condition.id),
      parsed.error.issues[0]?.message ?? COMPILE_MESSAGES.value,
    );
  const value = parsed.data as ConditionValue;
  const { expression } = column;
  const expr = sql.raw(expression);
  const op = condition.type;
  const isDate = type === 'date' || type === 'systemdate';

  if (op === 'string_empty') return isEmpty(column, expression);
  if (op === 'string_is_not_empty') return not(isEmpty(column, expression));
  if (op.startsWith('string_')) {
    const text = textOf(column, expression);
    const v = String(value);
    // a summary search narrows on the trigram index of the reader's summary variants first
    if (op === 'string_like_equals' && condition.id === 'summary')
      return summaryContainsSql(scope.alias, scope.summaryKey, v);
    if (op === 'string_exact_equals') return sql<boolean>`${text} = ${v}`;
    if (op === 'string_exact_not_equals') return not(sql<boolean>`${text} = ${v}`);
    if (op === 'string_like_equals') return sql<boolean>`${text} ilike ${likeContains(v)}`;
    return not(sql<boolean>`${text} ilike ${likeContains(v)}`);
  }
  if (op.startsWith('number_')) {
    const n = numberOf(column, expression);
    const compare = {
      number_equals: '=',
      number_not_equals: '<>',
      number_gt: '>',
      number_gte: '>=',
      number_lt: '<',
      number_lte: '<=',
    }[op as 'number_equals'];
    const cond = sql<boolean>`${n} ${sql.raw(compare)} ${Number(value)}`;
    return op === 'number_not_equals' ? not(sql<boolean>`${n} = ${Number(value)}`) : cond;
  }

  if (isDate) {
    if (value === 'NULL')
      return op === 'not_equals' ? not(isEmpty(column, expression)) : isEmpty(column, expression);
    if (value === 'NOT NULL')
      return op === 'not_equals' ? isEmpty(column, expression) : not(isEmpty(column, expression));
    const today = scope.today;
    if (op === 'equals' || op === 'not_equals') {
      const day = isoToYmd(String(value));
      const on = daysBetween(expr, column, day, day);
      return op === 'equals' ? on : not(on);
    }
    if (op === 'date_gt')
      return sql<boolean>`${expr} >= ${dayStart(column, addDays(isoToYmd(String(value)), 1))}`;
    if (op === 'date_gte') return sql<boolean>`${expr} >= ${dayStart(column, isoToYmd(String(value)))}`;
    if (op === 'date_lt') return sql<boolean>`${expr} < ${dayStart(column, isoToYmd(String(value)))}`;
    if (op === 'date_lte')
      return sql<boolean>`${expr} < ${dayStart(column, addDays(isoToYmd(String(value)), 1))}`;
    if (op === 'date_between' && Array.isArray(value))
      return daysBetween(expr, column, isoToYmd(String(value[0])), isoToYmd(String(value[1])));
    const relative = RELATIVE.exec(op);
    if (relative) {
      // add: from today on; subtract: up to today. max: within N units; min: N units or further.
      const [, direction, bound, unit] = relative;
      const n = Number(value) * (direction === 'add' ? 1 : -1);
      const edge = shift(today, n, unit === 'days_to_go' ? 'days' : unit);
      if (direction === 'add')
        return bound === 'max'
          ? daysBetween(expr, column, today, edge)
          : sql<boolean>`${expr} >= ${dayStart(column, edge)}`;
      return bound === 'max'
        ? daysBetween(expr, column, edge, today)
        : sql<boolean>`${expr} < ${dayStart(column, addDays(edge, 1))}`;
    }
    const between = BETWEEN.exec(op);
    if (between && Array.isArray(value)) {
      const [a, b] = value.map(Number).sort((x, y) => x - y);
      return daysBetween(expr, column, shift(today, a, between[1]), shift(today, b, between[1]));
    }
    if (op === 'birthday_weeks') {
      // the anniversary (month and day) falls within the next N weeks
      const weeks = Number(value);
      if (weeks >= 53) return not(isEmpty(column, expression));
      const from = ymdToIso(today).slice(5);
      const to = ymdToIso(addDays(today, 7 * weeks)).slice(5);
      const monthDay =
        column.kind === 'data'
          ? sql`to_char(${expr} at time zone 'Europe/Amsterdam', 'MM-DD')`
          : sql`substr(${expr}, 6, 5)`;
      return from <= to
        ? sql<boolean>`(${monthDay} between ${from} and ${to})`
        : sql<boolean>`(${monthDay} >= ${from} or ${monthDay} <= ${to})`;
    }
    throw new QueryCompileError(String(condition.id), COMPILE_MESSAGES.operator);
  }

  // lists, trees, users and dossier ids
  if (op === 'in' && Array.isArray(value)) return holdsAny(column, expression, value);
  if (op === 'equals' || op === 'not_equals') {
    const one = type === 'user' || type === 'systemuser' ? userValue(value, scope) : value;
    const cond =
      one === 'EMPTY' || one === null || one === ''
        ? isEmpty(column, expression)
        : holds(column, expression, Number(one));
    return op === 'equals' ? cond : not(cond);
  }
  throw new QueryCompileError(String(condition.id), COMPILE_MESSAGES.operator);
}
