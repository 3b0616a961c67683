import { valueRefsOf } from '@dossierbase/core';
import type { Db } from '../db/database';
import type { AggregationRun } from './compile/aggregate';
import type { ListParams } from './list-query';

// Counts over a whole entity from the counters the triggers of migration 2026-11-25T1600 keep in the
// transaction of every write: the number of dossiers, and per list or tree field how many dossiers
// chose each option. A list without filters reads them instead of scanning every dossier (a million
// dossiers took a quarter of a second to count, the same grouped by an option field longer).

/** The counter of the dossiers that hold any value for a field (no option has a negative id). */
const ANY_VALUE = -1;

/** Whether the list covers the whole entity: no filter, no summary search, not a linked list. */
export const coversWholeEntity = (params: ListParams) => params.condition === null && !params.embedded;

const archivedStates = (archived: ListParams['archived']) =>
  archived === 'none' ? [false] : archived === 'only' ? [true] : [false, true];

type CountedScope = Pick<ListParams, 'environmentId' | 'defDossierId' | 'archived'>;

/** The statement of countedTotal (the list's page statement carries it too: query/compile/page.ts). */
export const countedTotalQuery = (db: Db, params: CountedScope) =>
  db
    .selectFrom('entity_dossier_count')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.lit(0)).as('total'))
    .where('environment_id', '=', params.environmentId)
    .where('def_dossier_id', '=', params.defDossierId)
    .where('archived', 'in', archivedStates(params.archived));

/** The number of dossiers of the entity in the list's archived state (coversWholeEntity only). */
export async function countedTotal(db: Db, params: CountedScope): Promise<number> {
  const row = await countedTotalQuery(db, params).executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * The total and the aggregations of a list over the whole entity from the counters, when every
 * aggregation is an option count of a counted field; otherwise null (the list scans). The figures are
 * those runAggregations computes: how many dossiers hold a value, and per option how many chose it.
 */
export async function countedAggregations(db: Db, params: ListParams): Promise<AggregationRun | null> {
  const fields = params.aggregations.map(({ column }) =>
    column.kind === 'field' && valueRefsOf(column.type) === 'options' ? column.dataFieldId : null,
  );
  if (!coversWholeEntity(params) || fields.some((id) => id === null)) return null;
  const fieldIds = [...new Set(fields as number[])];
  const archived = archivedStates(params.archived);
  const scope = { environment: params.environmentId, entity: params.defDossierId };
  const [counted, options, total] = await Promise.all([
    db
      .selectFrom('option_count_field')
      .select('field_id')
      .where('environment_id', '=', scope.environment)
      .where('def_dossier_id', '=', scope.entity)
      .where('field_id', 'in', fieldIds)
      .execute(),
    db
      .selectFrom('option_count')
      .select(['field_id', 'many', 'option_id', (eb) => eb.fn.sum<number>('total').as('total')])
      .where('environment_id', '=', scope.environment)
      .where('def_dossier_id', '=', scope.entity)
      .where('field_id', 'in', fieldIds)
      .where('archived', 'in', archived)
      .groupBy(['field_id', 'many', 'option_id'])
      .execute(),
    countedTotal(db, params),
  ]);
  if (counted.length !== fieldIds.length) return null;
  const results = params.aggregations.map(({ column, aggregate }) => {
    const fieldId = column.kind === 'field' ? column.dataFieldId : 0;
    const many = column.kind === 'field' && column.settings.multiple === true;
    const ofField = options.filter((o) => o.field_id === fieldId && Number(o.total) > 0);
    const withValue = ofField.find((o) => Number(o.option_id) === ANY_VALUE);
    return {
      id: column.itemId ?? 0,
      aggregate,
      value: Number(withValue?.total ?? 0),
      options: ofField
        .filter((o) => o.many === many && Number(o.option_id) !== ANY_VALUE)
        .map((o) => ({ id: Number(o.option_id), total: Number(o.total) }))
        .sort((a, b) => b.total - a.total || a.id - b.id),
    };
  });
  return { total, results };
}
