import { type RawBuilder, sql } from 'kysely';
import { partitionOf } from '../../db/partitions';
import type { LinkRow } from '../../policy/display-item';
import type { SummaryKeys } from '../../policy/summary';
import { checkedId } from '../field-expression';
import { summaryExpression } from '../visible-summary';
import { type Column, DOSSIER_DATA, SORT_NAMES } from './columns';

// The sort keys of a list: the dossier's own columns, a field's expression (as its index holds it),
// or the summary of the first dossier linked through a single link.

export function sortExpression(
  name: string,
  columns: Map<number, Column>,
  summaryKeys: SummaryKeys,
  { defDossierId, environmentId }: { defDossierId: number; environmentId: number },
): { expression: RawBuilder<unknown>; column?: Column } | 'unknown' | 'unsortable' {
  if (name === 'summary')
    return { expression: sql.raw(summaryExpression('content_dossier', summaryKeys.get(defDossierId))) };
  if (SORT_NAMES.includes(name)) return { expression: sql.raw(DOSSIER_DATA[name].column) };
  const m = /^(dfl_)?(\d{1,10})$/.exec(name);
  if (!m) return 'unknown';
  const id = Number(m[2]);
  let column: Column | undefined;
  if (m[1]) {
    // dfl_{linkId}: the list item that shows that link
    column = [...columns.values()].find((c) => c.kind === 'link' && c.link.id === id);
  } else column = columns.get(id);
  if (!column) return 'unknown';
  if (!column.sortable) return 'unsortable';
  if (column.kind === 'link')
    return { expression: sql`(${linkedSummary(column.link, summaryKeys, environmentId)})`, column };
  return { expression: sql.raw(column.expression), column };
}

// The subqueries below read the environment's partitions (db/partitions.ts partitionOf), not the
// parents: a correlated environment column would have the planner plan a scan of every tenant's
// partition, and the parent's list of partitions is read on each new connection.

/** The summary (the one the reader sees) of the first dossier linked through a (single) link, for sorting. */
function linkedSummary(link: LinkRow, summaryKeys: SummaryKeys, environmentId: number): RawBuilder<unknown> {
  const forward = sql.raw(checkedId(link.id));
  const back = link.back_link_id ? sql.raw(checkedId(link.back_link_id)) : null;
  // the linked dossiers are of the link's child entity, from either side
  const summary = sql.raw(summaryExpression('l', summaryKeys.get(link.child_def_dossier_id)));
  const links = partitionOf('content_link', environmentId);
  const dossiers = partitionOf('content_dossier', environmentId);
  const viaForward = sql`(select ${summary} from ${links} cl
    join ${dossiers} l on l.id = cl.child_id and l.environment_id = cl.environment_id
    where cl.environment_id = ${environmentId} and cl.link_id = ${forward}
      and cl.parent_id = content_dossier.id order by cl.rank, cl.id limit 1)`;
  if (!back) return viaForward;
  return sql`coalesce(${viaForward}, (select ${summary} from ${links} cl
    join ${dossiers} l on l.id = cl.parent_id and l.environment_id = cl.environment_id
    where cl.environment_id = ${environmentId} and cl.link_id = ${back}
      and cl.child_id = content_dossier.id order by cl.rank, cl.id limit 1))`;
}
