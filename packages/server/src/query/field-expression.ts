import type { SqlCast } from '@dossierbase/core';

// The one place that spells the SQL expression of a stored field value. The list query and the
// expression indexes (field-indexes.ts) both use this text, so PostgreSQL matches them.
// Only integers reach the text: data-field ids come from our own rows and are checked again here.

export function checkedId(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`Invalid id ${String(id)}`);
  return String(id);
}

/**
 * SQL of a value kept in content_dossier.values, null when the type keeps nothing there.
 * Dates and date-times compare as their stored ISO text ('YYYY-MM-DD', UTC
 * 'YYYY-MM-DDTHH:mm:ss.sssZ'), which orders like the dates themselves: text-to-date casts are
 * not immutable, so an index could not hold them.
 */
export function valueExpression(dataFieldId: number, cast: SqlCast): string | null {
  const key = `'${checkedId(dataFieldId)}'`;
  switch (cast) {
    case 'text':
    case 'date':
    case 'timestamptz':
      return `("values" ->> ${key})`;
    case 'numeric':
      return `(("values" ->> ${key})::numeric)`;
    case 'bigint':
      return `(("values" ->> ${key})::bigint)`;
    case 'interval':
      return `(("values" ->> ${key})::interval)`;
    case 'jsonb':
      return `("values" -> ${key})`;
    case 'none':
      return null;
  }
}

/** Expressions an index can hold (immutable); interval input depends on IntervalStyle. */
export const indexableCast = (cast: SqlCast) => cast !== 'interval' && cast !== 'none';
