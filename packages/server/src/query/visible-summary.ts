import { type RawBuilder, sql } from 'kysely';
import type { SummaryKeys } from '../policy/summary';
import { likeContains } from './list-query';

// Reads the summary a reader may see (policy/summary.ts decides which): the stored summary for a reader
// without a key, which is the common case and the same SQL as ever; otherwise the stored variant of
// their class, or the dossier's id while it has none (written under another configuration).

interface SummaryColumns {
  id: number | string;
  summary: string;
  summaries?: Record<string, string> | null;
}

/** The summary of a loaded dossier row for a reader with this key (undefined: the full summary). */
export function visibleSummary(row: SummaryColumns, key: string | undefined): string {
  if (key === undefined) return row.summary;
  return row.summaries?.[key] ?? `#${row.id}`;
}

// Keys are made of our own ids (policy/summary.ts, summaryVariantKey), so they may be written into
// the SQL text like the ids of field expressions; anything else is refused.
const KEY = /^[\d,]*\|[\d,]*$/;
const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** The SQL text of the summary of dossier `alias` for a reader with this key. */
export function summaryExpression(alias: string, key: string | undefined): string {
  if (!ALIAS.test(alias) || (key !== undefined && !KEY.test(key))) throw new Error('Invalid summary key');
  if (key === undefined) return `${alias}.summary`;
  return `coalesce(${alias}.summaries ->> '${key}', '#' || ${alias}.id)`;
}

/** The summary of dossier `alias` for a reader with this key, as SQL. */
export const summarySql = (alias: string, key: string | undefined): RawBuilder<string> =>
  sql.raw(summaryExpression(alias, key));

/** The summary of dossier `alias`, of whichever entity, for a reader with these keys, as SQL. */
export function summaryOfAnyEntitySql(alias: string, keys: SummaryKeys): RawBuilder<string> {
  if (keys.size === 0) return summarySql(alias, undefined);
  const cases = [...keys].map(
    ([entityId, key]) => `when ${Math.trunc(entityId)} then ${summaryExpression(alias, key)}`,
  );
  return sql.raw(`(case ${alias}.def_dossier_id ${cases.join(' ')} else ${alias}.summary end)`);
}

/**
 * Whether the summary the reader sees contains `text` (ilike). A variant is narrowed first through the
 * partial trigram index on the JSON text of the row's variants: with the text escaped as JSON escapes
 * it, a variant that contains it has the JSON text contain it. Then the variant is matched exactly. A
 * dossier without its variant (shown by its id) is not found.
 */
export function summaryContainsSql(
  alias: string,
  key: string | undefined,
  text: string,
): RawBuilder<boolean> {
  const pattern = likeContains(text);
  if (key === undefined) return sql<boolean>`${summarySql(alias, undefined)} ilike ${pattern}`;
  const summaries = sql.raw(`${alias}.summaries`);
  const json = likeContains(JSON.stringify(text).slice(1, -1));
  return sql<boolean>`(${summaries} is not null and (${summaries})::text ilike ${json}
    and ${summarySql(alias, key)} ilike ${pattern})`;
}
