import { type RawBuilder, sql } from 'kysely';
import { partitionOf } from '../../db/partitions';
import { checkedId } from '../field-expression';

/**
 * SQL of the ids of the dossiers linked to dossier `dossierId`: the children of the rows of link
 * `forward` whose parent it is, and the parents of the rows of link `backward` (null: none) whose
 * child it is, read from the environment's partition of content_link.
 */
export function linkedToDossier(
  environmentId: number,
  dossierId: number,
  forward: number,
  backward: number | null,
): RawBuilder<unknown> {
  const children = sql`select cl.child_id from ${partitionOf('content_link', environmentId)} cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${sql.raw(checkedId(forward))} and cl.parent_id = ${dossierId}`;
  if (backward === null) return children;
  return sql`${children} union select cl.parent_id from ${partitionOf('content_link', environmentId)} cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${sql.raw(checkedId(backward))} and cl.child_id = ${dossierId}`;
}

/**
 * SQL of the ids of the dossiers whose link `link` holds dossier `dossierId`: the parents of the rows of
 * `link` whose child it is, and the children of the rows of its backlink `back` (null: none) whose
 * parent it is (a link is stored once, under whichever side was created first).
 */
export function holdingDossier(
  environmentId: number,
  dossierId: number,
  link: number,
  back: number | null,
): RawBuilder<unknown> {
  const parents = sql`select cl.parent_id from ${partitionOf('content_link', environmentId)} cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${sql.raw(checkedId(link))} and cl.child_id = ${dossierId}`;
  if (back === null) return parents;
  return sql`${parents} union select cl.child_id from ${partitionOf('content_link', environmentId)} cl
    where cl.environment_id = ${environmentId} and cl.link_id = ${sql.raw(checkedId(back))} and cl.parent_id = ${dossierId}`;
}
