import { z } from 'zod';
import { MAX_INT4 } from '../api/common';
import { OPERATOR_VALUE_KINDS, type OperatorName } from '../fields/operators';

// The query document (spec document 1 section 3 "Dossier query", "Query combinator", "Field
// condition", "Link condition"): the one model of a filter over dossiers. Saved queries store it, the
// list call's own parameters are translated into it (list-params.ts), and the server compiles it to
// SQL (packages/server/src/query/compile). Field ids are the entity's fields (def_dossier_def_field).

/** How deep combinators and link conditions may nest, and how many conditions one document holds. */
export const QUERY_LIMITS = { depth: 8, conditions: 200, listValues: 100 } as const;

/**
 * The dossier's own columns a condition may name instead of a field id. The spec names the four
 * system fields; `id` (dossier ids) and `summary` carry the list call's "linked to these dossiers" and
 * summary search.
 */
export const SYSTEM_FIELDS = [
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
  'id',
  'summary',
] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

export const ARCHIVED_CHOICES = ['none_archived', 'archived', 'both'] as const;
export type ArchivedChoice = (typeof ARCHIVED_CHOICES)[number];

const fieldId = z.union([z.enum(SYSTEM_FIELDS), z.coerce.number().int().positive().max(MAX_INT4)]);

const scalar = z.union([z.string().max(255), z.number(), z.null()]);

/**
 * A field condition. Its value is checked here only for shape and size: what it must hold depends on
 * the field's type as well as the operator (equals takes a date, an option or a user), which only the
 * compiler knows (core operatorValueSchema).
 */
export const fieldConditionSchema = z.object({
  id: fieldId,
  type: z.enum(Object.keys(OPERATOR_VALUE_KINDS) as [OperatorName, ...OperatorName[]], {
    message: 'Unknown operator',
  }),
  value: z
    .union([scalar, z.array(z.union([z.string().max(255), z.number()])).max(QUERY_LIMITS.listValues)])
    .optional()
    .default(null),
});

/** A condition's value as its operator's kind parsed it (see OPERATOR_VALUE_SCHEMAS). */
export type ConditionValue = string | number | null | (string | number)[];

export interface FieldCondition {
  id: number | SystemField;
  type: OperatorName;
  value: ConditionValue;
}

export interface LinkCondition {
  /** the link (def_dossier_link) from the entity, or a link to it read backwards */
  id: number;
  combinators: Combinator[];
  where_empty_not_empty?: 'EMPTY' | 'NOT_EMPTY' | null;
  include_archived?: ArchivedChoice | null;
  where_other_type?: 'IN' | 'NOT_IN' | null;
  where_other_query?: number | null;
  where_min?: number | null;
  where_max?: number | null;
}

export interface Combinator {
  uuid?: string;
  combine: 'AND' | 'OR';
  fields: FieldCondition[];
  links: LinkCondition[];
  combinators: Combinator[];
}

export interface QueryDocument {
  combinators: Combinator[];
  include_archived: ArchivedChoice;
}

const count = z.coerce.number().int().min(0).max(1_000_000);

export const linkConditionSchema: z.ZodType<LinkCondition> = z.lazy(() =>
  z
    .object({
      id: z.coerce.number().int().positive().max(MAX_INT4),
      combinators: z.array(combinatorSchema).max(QUERY_LIMITS.conditions).default([]),
      where_empty_not_empty: z.enum(['EMPTY', 'NOT_EMPTY']).nullish(),
      include_archived: z.enum(ARCHIVED_CHOICES).nullish(),
      where_other_type: z.enum(['IN', 'NOT_IN']).nullish(),
      where_other_query: z.coerce.number().int().positive().max(MAX_INT4).nullish(),
      where_min: count.nullish(),
      where_max: count.nullish(),
    })
    .refine((l) => !l.where_other_type || l.where_other_query, {
      path: ['where_other_query'],
      message: 'This is a required field',
    })
    .refine((l) => l.where_min == null || l.where_max == null || l.where_min <= l.where_max, {
      path: ['where_max'],
      message: 'The maximum must not be below the minimum',
    }),
) as z.ZodType<LinkCondition>;

export const combinatorSchema: z.ZodType<Combinator> = z.lazy(() =>
  z.object({
    uuid: z.string().max(64).optional(),
    combine: z.enum(['AND', 'OR']).default('AND'),
    fields: z.array(fieldConditionSchema).max(QUERY_LIMITS.conditions).default([]),
    links: z.array(linkConditionSchema).max(QUERY_LIMITS.conditions).default([]),
    combinators: z.array(combinatorSchema).max(QUERY_LIMITS.conditions).default([]),
  }),
) as z.ZodType<Combinator>;

/** The stored form of a query (`data`); an empty include_archived means both, as the spec says. */
export const queryDocumentSchema = z
  .object({
    combinators: z.array(combinatorSchema).max(QUERY_LIMITS.conditions).default([]),
    include_archived: z
      .union([z.enum(ARCHIVED_CHOICES), z.literal(''), z.null()])
      .optional()
      .transform((v): ArchivedChoice => (v ? v : v === undefined ? 'none_archived' : 'both')),
  })
  .superRefine((document, ctx) => {
    const { depth, conditions } = measure(document.combinators);
    if (depth > QUERY_LIMITS.depth)
      ctx.addIssue({
        code: 'custom',
        path: ['combinators'],
        message: `Nest at most ${QUERY_LIMITS.depth} levels`,
      });
    if (conditions > QUERY_LIMITS.conditions)
      ctx.addIssue({
        code: 'custom',
        path: ['combinators'],
        message: `Use at most ${QUERY_LIMITS.conditions} conditions`,
      });
  });

/** Nesting depth (combinators and link conditions) and the number of conditions of a document. */
export function measure(combinators: Combinator[]): { depth: number; conditions: number } {
  let depth = 0;
  let conditions = 0;
  const walk = (list: Combinator[], level: number) => {
    for (const c of list) {
      depth = Math.max(depth, level);
      conditions += c.fields.length + c.links.length;
      walk(c.combinators, level + 1);
      for (const l of c.links) walk(l.combinators, level + 1);
    }
  };
  walk(combinators, 1);
  return { depth, conditions };
}

/** Combinators joined by AND: how the list's own filters are added to a saved query. */
export function andDocuments(a: QueryDocument, b: Combinator[]): QueryDocument {
  return { ...a, combinators: [...a.combinators, ...b] };
}
