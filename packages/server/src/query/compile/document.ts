import {
  type ArchivedChoice,
  type Combinator,
  type FieldCondition,
  type LinkCondition,
  QUERY_LIMITS,
  type QueryDocument,
  type Ymd,
} from '@dossierbase/core';
import { type RawBuilder, sql } from 'kysely';
import { partitionOf } from '../../db/partitions';
import type { LinkRow } from '../../policy/display-item';
import { checkedId } from '../field-expression';
import type { Column } from './columns';
import { COMPILE_MESSAGES, compileCondition, QueryCompileError, systemColumn } from './conditions';

// A query document (core query/document.ts) as one SQL condition over `content_dossier`: combinators
// become AND/OR groups, link conditions EXISTS subqueries (nested to QUERY_LIMITS.depth), and a
// condition on another saved query that query's own condition, inlined with a cycle check.

/** What the compiler may read of an entity: the fields the user may see, and its links. */
export interface EntityScope {
  defDossierId: number;
  /** field (def_dossier_def_field) id -> column, only the fields the user may see */
  fields: ReadonlyMap<number, Column>;
  /** links from this entity the user may follow, by id */
  links: ReadonlyMap<number, LinkRow>;
  summaryKey: string | undefined;
}

export interface SavedQuery {
  id: number;
  defDossierId: number;
  document: QueryDocument;
}

export interface CompileContext {
  environmentId: number;
  userId: number;
  /** today in Europe/Amsterdam */
  today: Ymd;
  /** entities loaded for this compile (see prepare in the service), by id */
  entities: ReadonlyMap<number, EntityScope>;
  /** saved queries loaded for this compile, by id */
  queries: ReadonlyMap<number, SavedQuery>;
}

interface Walk {
  ctx: CompileContext;
  depth: number;
  /** the saved queries being expanded (cycle check) */
  expanding: number[];
  aliases: number;
}

const TRUE = sql<boolean>`true`;

/** The archived filter of a document or link condition for the dossier `alias`. */
export function archivedSql(alias: string, choice: ArchivedChoice | null | undefined): RawBuilder<boolean> {
  if (choice === 'archived') return sql<boolean>`${sql.ref(`${alias}.archived`)} = true`;
  if (choice === 'both') return TRUE;
  return sql<boolean>`${sql.ref(`${alias}.archived`)} = false`;
}

/** The document's conditions (not its archived filter) on `content_dossier` of `entity`. */
export function compileDocument(
  document: QueryDocument,
  entity: EntityScope,
  ctx: CompileContext,
  expanding: number[] = [],
): RawBuilder<boolean> {
  const walk: Walk = { ctx, depth: 1, expanding, aliases: 0 };
  return group(
    'AND',
    document.combinators.map((c) => combinator(c, entity, 'content_dossier', walk)),
  );
}

function group(combine: 'AND' | 'OR', parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0];
  return sql<boolean>`(${sql.join(parts, combine === 'AND' ? sql` and ` : sql` or `)})`;
}

function combinator(c: Combinator, entity: EntityScope, alias: string, walk: Walk): RawBuilder<boolean> {
  if (walk.depth > QUERY_LIMITS.depth) throw new QueryCompileError('combinators', COMPILE_MESSAGES.depth);
  const inner = { ...walk, depth: walk.depth + 1 };
  const parts = [
    ...c.fields.map((f) => field(f, entity, alias, walk)),
    ...c.links.map((l) => link(l, entity, alias, inner)),
    ...c.combinators.map((nested) => combinator(nested, entity, alias, inner)),
  ];
  // an empty group matches everything, whichever way it combines
  return group(c.combine, parts);
}

function field(f: FieldCondition, entity: EntityScope, alias: string, walk: Walk): RawBuilder<boolean> {
  const column =
    typeof f.id === 'number' ? entity.fields.get(f.id) : systemColumn(f.id, alias, entity.summaryKey);
  if (!column) throw new QueryCompileError(String(f.id), COMPILE_MESSAGES.unknownField);
  const qualified =
    column.kind === 'field'
      ? { ...column, expression: column.expression.replace('"values"', `${alias}."values"`) }
      : column;
  return compileCondition(f, qualified, {
    alias,
    summaryKey: entity.summaryKey,
    userId: walk.ctx.userId,
    // read when a condition needs it (relative dates): the context may work it out only then
    get today() {
      return walk.ctx.today;
    },
  });
}

/**
 * The dossiers linked to `alias` through the link, in both directions (the link itself from this
 * entity, and its back link to it), that match the link condition's own conditions.
 */
function link(l: LinkCondition, entity: EntityScope, alias: string, walk: Walk): RawBuilder<boolean> {
  if (walk.depth > QUERY_LIMITS.depth) throw new QueryCompileError('links', COMPILE_MESSAGES.depth);
  const row = entity.links.get(l.id);
  if (!row) throw new QueryCompileError(String(l.id), COMPILE_MESSAGES.unknownLink);
  const target = walk.ctx.entities.get(row.child_def_dossier_id);
  if (!target) throw new QueryCompileError(String(l.id), COMPILE_MESSAGES.unknownLink);
  walk.aliases += 1;
  const inner = `l${walk.depth}_${walk.aliases}`;
  const env = walk.ctx.environmentId;
  const conditions: RawBuilder<boolean>[] = [
    archivedSql(inner, l.include_archived ?? 'both'),
    group(
      'AND',
      l.combinators.map((c) => combinator(c, target, inner, walk)),
    ),
  ];
  if (l.where_other_type && l.where_other_query) {
    const other = otherQuery(l.where_other_query, target, inner, walk);
    conditions.push(l.where_other_type === 'IN' ? other : sql<boolean>`not coalesce(${other}, false)`);
  }
  // The ids of the dossiers (of this side) linked to a matching dossier, through the link and through
  // its back link. Not correlated with the outer row: PostgreSQL reads the few matching linked
  // dossiers first and joins their links (a correlated EXISTS had it try every row of the outer side).
  const linkedDossier = sql.raw(inner);
  const matches = group('AND', conditions);
  const through = (linkId: number, own: 'parent_id' | 'child_id') => {
    const other = own === 'parent_id' ? 'child_id' : 'parent_id';
    return sql`select cl.${sql.raw(own)} as id from ${partitionOf('content_link', env)} cl
      join ${partitionOf('content_dossier', env)} ${linkedDossier} on ${linkedDossier}.id = cl.${sql.raw(other)} and ${linkedDossier}.environment_id = cl.environment_id
      where cl.environment_id = ${env} and cl.link_id = ${sql.raw(checkedId(linkId))} and ${matches}`;
  };
  const linked = row.back_link_id
    ? sql`${through(row.id, 'parent_id')} union all ${through(row.back_link_id, 'child_id')}`
    : through(row.id, 'parent_id');
  const outerId = sql.ref(`${alias}.id`);
  if (l.where_empty_not_empty === 'EMPTY') return sql<boolean>`${outerId} not in (${linked})`;
  const min = l.where_min ?? null;
  const max = l.where_max ?? null;
  if (min === null && max === null) return sql<boolean>`${outerId} in (${linked})`;
  const counted = (having: RawBuilder<boolean>) =>
    sql`select m.id from (${linked}) m group by m.id having ${having}`;
  // at most `max` (with no minimum) includes the dossiers linked to none
  if (!min) return sql<boolean>`${outerId} not in (${counted(sql<boolean>`count(*) > ${max}`)})`;
  const having =
    max === null ? sql<boolean>`count(*) >= ${min}` : sql<boolean>`count(*) between ${min} and ${max}`;
  return sql<boolean>`${outerId} in (${counted(having)})`;
}

/** Whether the dossier `alias` matches another saved query (of the linked entity). */
function otherQuery(id: number, entity: EntityScope, alias: string, walk: Walk): RawBuilder<boolean> {
  if (walk.expanding.includes(id)) throw new QueryCompileError('where_other_query', COMPILE_MESSAGES.cycle);
  const saved = walk.ctx.queries.get(id);
  if (!saved || saved.defDossierId !== entity.defDossierId)
    throw new QueryCompileError('where_other_query', COMPILE_MESSAGES.unknownQuery);
  const inner: Walk = { ...walk, expanding: [...walk.expanding, id], depth: walk.depth + 1 };
  const parts = [
    archivedSql(alias, saved.document.include_archived),
    ...saved.document.combinators.map((c) => combinator(c, entity, alias, inner)),
  ];
  return group('AND', parts);
}

/** The entity and saved-query ids a document reaches (to load before compiling). */
export function reachedLinks(document: QueryDocument): { links: number[]; queries: number[] } {
  const links = new Set<number>();
  const queries = new Set<number>();
  const walk = (list: Combinator[], level: number) => {
    if (level > QUERY_LIMITS.depth + 1) return;
    for (const c of list) {
      for (const l of c.links) {
        links.add(l.id);
        if (l.where_other_query) queries.add(l.where_other_query);
        walk(l.combinators, level + 1);
      }
      walk(c.combinators, level + 1);
    }
  };
  walk(document.combinators, 1);
  return { links: [...links], queries: [...queries] };
}
