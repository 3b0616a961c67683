import { type Aggregation, getFieldType, valueRefsOf } from '@dossierbase/core';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import { checkedId } from '../field-expression';
import type { ListParams } from '../list-query';
import { executeOnSet, noteProjectedUse, projectedSet } from '../projection-query';
import type { Column } from './columns';
import { filteredQuery } from './page';

// The aggregations of a list column ({id}_aggregate) over the filtered set.

/** The aggregations a column offers (its type's; a link counts its dossiers). */
export function aggregationsOf(column: Column): readonly Aggregation[] {
  if (column.kind === 'link') return ['unique', 'count'];
  return getFieldType(column.type).aggregations;
}

export interface AggregationRun {
  /** rows in the filtered set: the scan that computes the plain aggregates counts them too */
  total: number;
  results: {
    id: number;
    aggregate: string;
    value: number | null;
    options?: { id: number; total: number }[];
  }[];
}

/**
 * Value of each aggregation over the filtered set, and its total. The plain aggregates (sum, avg,
 * count, ...) and the total share one scan; option counts and link counts need a query each, run
 * beside it.
 */
export async function runAggregations(db: Db, params: ListParams): Promise<AggregationRun> {
  // a large set is counted and aggregated on the entity's projection (projection-query.ts)
  const set = await projectedSet(
    db,
    params,
    params.aggregations.flatMap(({ column }) => (column.kind === 'field' ? [column.dataFieldId] : [])),
  );
  const results: AggregationRun['results'] = [];
  const plain: { index: number; id: number; aggregate: string; selection: RawBuilder<unknown> }[] = [];
  const optionsOf = new Map<number, { id: number; total: number }[]>();
  const separate = Promise.all(
    params.aggregations.map(async ({ column, aggregate }, index) => {
      const id = column.itemId ?? 0;
      const base = filteredQuery(db, params);
      if (column.kind === 'link') {
        const forward = sql.raw(checkedId(column.link.id));
        const backward = column.link.back_link_id
          ? sql`union all select cl.parent_id, cl.child_id from content_link cl where cl.environment_id = ${params.environmentId} and cl.link_id = ${sql.raw(checkedId(column.link.back_link_id))}`
          : sql``;
        const linked = sql`(select cl.child_id as linked, cl.parent_id as owner from content_link cl where cl.environment_id = ${params.environmentId} and cl.link_id = ${forward} ${backward})`;
        const counted = aggregate === 'unique' ? sql`count(distinct x.linked)` : sql`count(distinct x.owner)`;
        const { rows } = await sql<{ v: unknown }>`select ${counted} as v from ${linked} x
          where x.owner in (${base.select('content_dossier.id')})`.execute(db);
        results[index] = { id, aggregate, value: toNumber(rows[0]?.v) };
        return;
      }
      const expr = sql.raw(column.expression);
      if (column.kind === 'field' && valueRefsOf(column.type) === 'options') {
        const element =
          column.settings.multiple === true
            ? sql.raw(
                `jsonb_array_elements(case jsonb_typeof(${column.expression}) when 'array' then ${column.expression} else '[]'::jsonb end)`,
              )
            : expr;
        // the value (how many have an option) comes from the shared scan, the options from this one
        plain.push({ index, id, aggregate, selection: sql`count(${expr})` });
        const rows = await executeOnSet(
          db,
          set,
          base
            .select([sql<string>`(${element})::text`.as('option'), sql<number>`count(*)`.as('total')])
            .where(sql<boolean>`${expr} is not null`)
            .groupBy(sql`1`),
          { waitedFor: true },
        );
        // an option is a whole number, as the counters of query/dossier-counts.ts count them
        const options = rows
          .filter((r) => /^[0-9]{1,15}$/.test(r.option))
          .map((r) => ({ id: Number(r.option), total: Number(r.total) }))
          .sort((a, b) => b.total - a.total || a.id - b.id);
        optionsOf.set(index, options);
        return;
      }
      let selection: RawBuilder<unknown>;
      if (aggregate === 'count') selection = sql`count(${expr})`;
      else if (aggregate === 'unique') selection = sql`count(distinct ${expr})`;
      else if (column.cast === 'interval')
        selection = sql`extract(epoch from ${sql.raw(aggregate)}(${expr}))`;
      else selection = sql`${sql.raw(aggregate)}(${expr})`;
      plain.push({ index, id, aggregate, selection });
    }),
  );
  // Every query above was started before its first await, so `plain` is complete here.
  const shared = executeOnSet(
    db,
    set,
    filteredQuery(db, params).select([
      sql`count(*)`.as('total'),
      ...plain.map((p, i) => p.selection.as(`v${i}`)),
    ]),
    { waitedFor: true },
  ) as Promise<Record<string, unknown>[]>;
  const [[row]] = await Promise.all([shared, separate]);
  if (set) noteProjectedUse(db, set);
  plain.forEach(({ index, id, aggregate }, i) => {
    const raw = row?.[`v${i}`];
    // dates keep their ISO text (min/max of a date column)
    const value =
      raw instanceof Date
        ? raw.toISOString()
        : typeof raw === 'string' && !/^-?[\d.]+(e[-+]?\d+)?$/i.test(raw)
          ? raw
          : toNumber(raw);
    results[index] = { id, aggregate, value: value as number | null };
  });
  for (const [index, options] of optionsOf) results[index] = { ...results[index], options };
  return { total: Number(row?.total ?? 0), results };
}

function toNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
