import { type RawBuilder, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database';
import { partitionOf } from '../db/partitions';
import { perDatabase } from '../db/per-database';
import type { SummaryKeys } from '../policy/summary';
import { visibleSummary } from './visible-summary';

// The dossiers linked to the rows of a list page, from two per-node caches, each entry kept with the
// data version of an entity as it was read. The page statement reads the versions of the entity and of
// the entities linked to it (the triggers of migration 2026-11-22T0305 move an entity's version on every
// write to its dossiers and, for both ends, to their links, on every node), so an entry counts only
// while its entity's version is the one the page saw; the others are read in one statement after the
// page.
// - Which dossiers each row links to (content_link, in rank order), under the row's entity version. As
//   50 correlated lookups in the page statement they took about a third of list (a)'s statement in
//   PostgreSQL (0.7 of 1.8-2.1 ms of its CPU, planning included).
// - What the answer shows of each linked dossier (its summary for the reader, its entity, whether it is
//   archived), under the linked entity's version. Joined into the page statement it cost about 0.6 ms of
//   its 2.5-3.2 (50 lookups by key, their summaries and a JSON object each), on every list call.

/** Link ids whose linked dossiers a page carries: forward links and the back links that mirror them. */
export interface PageLinks {
  forward: number[];
  backward: number[];
}

/** A dossier linked to a page row, as the answer carries it (`forward`: the row is the parent). */
export interface PageLinkedDossier {
  link_id: number;
  forward: boolean;
  id: number;
  summary: string;
  def_dossier_id: number;
  archived: boolean;
}

/**
 * A row's links as the page statement reads them: [link id, forward, linked dossier id, rank, link row
 * id], in no order (linkedDossiersOf puts them in rank order).
 */
export type LinkRefs = [number, boolean, number, number | null, number][];

/** The data version of each entity the page statement read (entity id -> version). */
export type EntityVersions = Record<string, number>;

interface LinkedEntry {
  def_dossier_id: number;
  archived: boolean;
  summary: string;
  summaries: Record<string, string> | null;
  /** the data version of its entity in the snapshot it was read in */
  version: number;
}

const cacheOf = perDatabase(() => new LRUCache<string, LinkedEntry>({ max: 20_000 }));

interface RowLinksEntry {
  refs: LinkRefs;
  /** the data version of the row's entity in the snapshot the refs were read in */
  version: number;
}

const rowLinksCacheOf = perDatabase(() => new LRUCache<string, RowLinksEntry>({ max: 20_000 }));

/**
 * SQL of the links of page row `content_dossier` through `links` (both directions), as a JSON array of
 * LinkRefs; null without links to read. Not ordered here: an ordered aggregate sorts once per page row
 * (50 sorts of one or two links), about a tenth of list (a)'s statement; the rank is sorted in
 * linkedDossiersOf.
 */
export function linkRefsSql(environmentId: number, links: PageLinks): RawBuilder<unknown> | null {
  const parts: RawBuilder<unknown>[] = [];
  if (links.forward.length)
    parts.push(sql`select cl.link_id, true as forward, cl.child_id as id, cl.rank, cl.id as cl_id
      from ${partitionOf('content_link', environmentId)} cl
      where cl.environment_id = ${environmentId} and cl.link_id in (${sql.join(links.forward)})
        and cl.parent_id = content_dossier.id`);
  if (links.backward.length)
    parts.push(sql`select cl.link_id, false, cl.parent_id, cl.rank, cl.id
      from ${partitionOf('content_link', environmentId)} cl
      where cl.environment_id = ${environmentId} and cl.link_id in (${sql.join(links.backward)})
        and cl.child_id = content_dossier.id`);
  if (!parts.length) return null;
  return sql`(select coalesce(json_agg(json_build_array(x.link_id, x.forward, x.id, x.rank, x.cl_id)), '[]')
    from (${sql.join(parts, sql` union all `)}) x)`;
}

/**
 * The links of page rows (all of entity `defDossierId`) through `links`, as LinkRefs per row: from the
 * cache where the entry's version is the entity's version in `versions` (what the page statement read),
 * the others read now, in one statement, each with its entity's version in that statement's snapshot.
 */
export async function pageLinkRefsOf(
  db: Db,
  environmentId: number,
  defDossierId: number,
  links: PageLinks,
  rowIds: readonly number[],
  versions: EntityVersions | null,
): Promise<LinkRefs[]> {
  if (!links.forward.length && !links.backward.length) return rowIds.map(() => []);
  const cache = rowLinksCacheOf(db);
  const linksKey = `${environmentId}:${links.forward.join(',')}:${links.backward.join(',')}:`;
  const version = Number(versions?.[defDossierId] ?? 0);
  const found = new Map<number, LinkRefs>();
  const missing: number[] = [];
  for (const id of rowIds) {
    const entry = cache.get(linksKey + id);
    if (entry && entry.version === version) found.set(id, entry.refs);
    else missing.push(id);
  }
  if (missing.length) {
    const { rows } = await sql<{ id: string; version: string; links: LinkRefs }>`select content_dossier.id,
        coalesce((select v.version from entity_data_version v where v.def_dossier_id = ${defDossierId}), 0)
          as version,
        ${linkRefsSql(environmentId, links)} as links
      from unnest(${sql.val(missing)}::bigint[]) as content_dossier(id)`.execute(db);
    for (const row of rows) {
      const entry = { refs: row.links, version: Number(row.version) };
      cache.set(linksKey + row.id, entry);
      found.set(Number(row.id), entry.refs);
    }
  }
  return rowIds.map((id) => found.get(id) ?? []);
}

/** SQL of the data versions of `entityIds` as a JSON object (entity id -> version). */
export const entityVersionsSql = (entityIds: readonly number[]) => sql<EntityVersions | null>`(
    select json_object_agg(def_dossier_id, version) from entity_data_version
    where def_dossier_id = any(${sql.val([...entityIds])}::int[]))`;

/** The sum of the versions (an entity without a row has 0): the key of the list's cached totals. */
export const summedDataVersion = (versions: EntityVersions | null): string =>
  String(Object.values(versions ?? {}).reduce((sum, version) => sum + Number(version), 0));

/**
 * The linked dossiers of each row (`refs`, per row, from linkRefsSql) as the reader sees them: from the
 * cache where the entry's entity version is the one in `versions`, the others read now. A dossier gone
 * since the page was read is left out.
 */
export async function linkedDossiersOf(
  db: Db,
  environmentId: number,
  refs: readonly (LinkRefs | null)[],
  versions: EntityVersions | null,
  summaryKeys: SummaryKeys,
): Promise<PageLinkedDossier[][]> {
  const cache = cacheOf(db);
  const key = (id: number) => `${environmentId}:${id}`;
  const entries = new Map<number, LinkedEntry>();
  const missing = new Set<number>();
  for (const rowRefs of refs)
    for (const [, , id] of rowRefs ?? []) {
      if (entries.has(id) || missing.has(id)) continue;
      const entry = cache.get(key(id));
      if (entry && entry.version === Number(versions?.[entry.def_dossier_id] ?? 0)) entries.set(id, entry);
      else missing.add(id);
    }
  if (missing.size) {
    // the entry and its entity's version in one snapshot: the version is the one its data had
    const { rows } = await sql<LinkedEntry & { id: number }>`select d.id, d.def_dossier_id, d.archived,
        d.summary, d.summaries, coalesce(v.version, 0) as version
      from ${partitionOf('content_dossier', environmentId)} d
        left join entity_data_version v on v.def_dossier_id = d.def_dossier_id
      where d.environment_id = ${environmentId} and d.id = any(${sql.val([...missing])}::bigint[])`.execute(
      db,
    );
    for (const { id, ...entry } of rows) {
      cache.set(key(id), entry);
      entries.set(Number(id), entry);
    }
  }
  return refs.map((rowRefs) =>
    inRankOrder(rowRefs ?? []).flatMap(([link_id, forward, id]) => {
      const entry = entries.get(id);
      if (!entry) return [];
      const summary = visibleSummary({ id, ...entry }, summaryKeys.get(entry.def_dossier_id));
      return [
        { link_id, forward, id, summary, def_dossier_id: entry.def_dossier_id, archived: entry.archived },
      ];
    }),
  );
}

/** A row's links by rank, then by link row id, as `order by rank, id` sorts them (a null rank last). */
function inRankOrder(refs: LinkRefs): LinkRefs {
  if (refs.length < 2) return refs;
  return [...refs].sort(
    ([, , , rankA, idA], [, , , rankB, idB]) =>
      (rankA ?? Number.POSITIVE_INFINITY) - (rankB ?? Number.POSITIVE_INFINITY) || idA - idB,
  );
}
