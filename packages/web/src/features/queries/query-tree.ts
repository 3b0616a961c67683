import type {
  ArchivedChoice,
  Combinator,
  ConditionValue,
  FieldCondition,
  LinkCondition,
  OperatorName,
  QueryDocument,
  SystemField,
} from '@dossierbase/core';

// The query document as the editor holds it: every group has a uuid (its key while dragging), and a
// condition may still lack its field, operator or link while it is being written. toDocument gives
// the core document of the complete conditions; incompletePaths names the others.

export interface FieldDraft {
  id: number | SystemField | null;
  type: OperatorName | null;
  value: ConditionValue;
}

export interface LinkDraft extends Omit<LinkCondition, 'id' | 'combinators'> {
  id: number | null;
  combinators: CombinatorDraft[];
}

export interface CombinatorDraft {
  uuid: string;
  combine: 'AND' | 'OR';
  fields: FieldDraft[];
  links: LinkDraft[];
  combinators: CombinatorDraft[];
}

export interface DocumentDraft {
  combinators: CombinatorDraft[];
  include_archived: ArchivedChoice;
}

/** The four system fields the spec names, offered beside the entity's own fields. */
export const QUERY_SYSTEM_FIELDS = [
  { id: 'created_at', type: 'systemdate' },
  { id: 'created_by', type: 'systemuser' },
  { id: 'modified_at', type: 'systemdate' },
  { id: 'modified_by', type: 'systemuser' },
] as const satisfies readonly { id: SystemField; type: string }[];

export const newCombinator = (combine: 'AND' | 'OR' = 'AND'): CombinatorDraft => ({
  uuid: crypto.randomUUID(),
  combine,
  fields: [],
  links: [],
  combinators: [],
});

export const newField = (): FieldDraft => ({ id: null, type: null, value: null });

export const newLink = (): LinkDraft => ({
  id: null,
  combinators: [],
  where_empty_not_empty: null,
  include_archived: null,
  where_other_type: null,
  where_other_query: null,
  where_min: null,
  where_max: null,
});

export const emptyDraft = (): DocumentDraft => ({ combinators: [], include_archived: 'none_archived' });

function draftCombinator(c: Combinator): CombinatorDraft {
  return {
    uuid: c.uuid || crypto.randomUUID(),
    combine: c.combine === 'OR' ? 'OR' : 'AND',
    fields: (c.fields ?? []).map((f) => ({ id: f.id, type: f.type, value: f.value ?? null })),
    links: (c.links ?? []).map((l) => ({
      ...newLink(),
      ...l,
      combinators: (l.combinators ?? []).map(draftCombinator),
    })),
    combinators: (c.combinators ?? []).map(draftCombinator),
  };
}

/** A stored document as the editor holds it (groups without a uuid get one). */
export function toDraft(document: Partial<QueryDocument> | undefined): DocumentDraft {
  return {
    combinators: (document?.combinators ?? []).map(draftCombinator),
    include_archived: document?.include_archived ?? 'none_archived',
  };
}

const isCompleteField = (f: FieldDraft): f is FieldCondition => f.id !== null && f.type !== null;

function completeCombinator(c: CombinatorDraft): Combinator {
  return {
    uuid: c.uuid,
    combine: c.combine,
    fields: c.fields.filter(isCompleteField),
    links: c.links
      .filter((l): l is LinkDraft & { id: number } => l.id !== null)
      .map((l) => {
        const link: LinkCondition = { id: l.id, combinators: l.combinators.map(completeCombinator) };
        if (l.where_empty_not_empty) link.where_empty_not_empty = l.where_empty_not_empty;
        if (l.include_archived) link.include_archived = l.include_archived;
        if (l.where_other_type && l.where_other_query) {
          link.where_other_type = l.where_other_type;
          link.where_other_query = l.where_other_query;
        }
        if (l.where_min != null) link.where_min = l.where_min;
        if (l.where_max != null) link.where_max = l.where_max;
        return link;
      }),
    combinators: c.combinators.map(completeCombinator),
  };
}

/** The core document of the draft's complete conditions (what is counted and saved). */
export function toDocument(draft: DocumentDraft): QueryDocument {
  return { combinators: draft.combinators.map(completeCombinator), include_archived: draft.include_archived };
}

/**
 * The paths (as the server names them: data.combinators.0.fields.1) of the conditions that still
 * lack their field, operator or link, or an IN / NOT IN without its query.
 */
export function incompletePaths(draft: DocumentDraft): string[] {
  const out: string[] = [];
  const walk = (list: CombinatorDraft[], path: string) =>
    list.forEach((c, i) => {
      const here = `${path}.${i}`;
      c.fields.forEach((f, j) => {
        if (!isCompleteField(f)) out.push(`${here}.fields.${j}`);
      });
      c.links.forEach((l, j) => {
        if (l.id === null || (l.where_other_type && !l.where_other_query)) out.push(`${here}.links.${j}`);
        walk(l.combinators, `${here}.links.${j}.combinators`);
      });
      walk(c.combinators, `${here}.combinators`);
    });
  walk(draft.combinators, 'data.combinators');
  return out;
}

/**
 * The messages for one condition: the server's keyed by its path (or a part of it: .id, .type,
 * .value) and the compiler's keyed by the condition's field or link id (data.<id>).
 */
export function messagesAt(
  errors: Record<string, string>,
  path: string,
  id: number | string | null,
): string[] {
  const found = Object.entries(errors)
    .filter(
      ([key]) =>
        key === path ||
        (key.startsWith(`${path}.`) && !/\.(combinators|links|fields)\./.test(key.slice(path.length))),
    )
    .map(([, message]) => message);
  if (id !== null && errors[`data.${id}`]) found.push(errors[`data.${id}`]);
  return [...new Set(found)];
}

/** The list with the entry at `from` moved to `to`. */
export function moveEntry<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}
