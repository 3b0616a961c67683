import { z } from 'zod';
import { recurrenceSchema } from '../recurrence/index';
import type { Pager } from './common';
import type { DisplayItem } from './entity';
import { dossierIdSchema, idSchema } from './ids';

// Dossier records (spec document 2): the contentdossier calls. Values travel keyed by display item
// id (as the client sends them); the server stores them keyed by data-field id.

export const DOSSIER_MESSAGES = {
  required: 'This is a required field',
  notAllFilled: 'Not all fields are (correctly) filled in',
  unknownItem: 'Unknown field',
  hiddenItem: 'You may not change this field',
  singleLink: 'Only one dossier can be linked here',
  archived: 'This item is archived',
  duplicate: 'A dossier with this value exists',
} as const;

/** Page sizes the list screen offers; an API client may ask for any limit from 1 to MAX_LIST_LIMIT. */
export const PAGE_SIZES = [10, 20, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_LIST_LIMIT = 500;
export const LIST_LIMIT_MESSAGE = `Enter a page size from 1 to ${MAX_LIST_LIMIT}`;

/** `limit` of GET /api/contentdossier: a whole number from 1 to MAX_LIST_LIMIT, else 400. */
export const dossierListLimitSchema = z.coerce
  .number({ error: LIST_LIMIT_MESSAGE })
  .int({ error: LIST_LIMIT_MESSAGE })
  .min(1, { error: LIST_LIMIT_MESSAGE })
  .max(MAX_LIST_LIMIT, { error: LIST_LIMIT_MESSAGE });
export const ARCHIVED_FILTERS = ['none', 'both', 'only'] as const;
export const DATE_FILTER_TYPES = ['on', 'after', 'before', 'between'] as const;

export interface UserRefWire {
  id: number;
  username: string;
}

export interface LinkedDossier {
  id: number;
  summary: string;
  def_dossier_id: number;
  archived: boolean;
}

export interface Dossier {
  id: number;
  summary: string;
  def_dossier_id: number;
  environment_id: number;
  archived: boolean;
  created_at: string;
  modified_at: string;
  created_by: UserRefWire | null;
  modified_by: UserRefWire | null;
}

/** Value of one display item: a field value per its type, LinkedDossier[] for links, or dossier data. */
export type ItemValue = unknown;

/** GET /api/contentdossier/{id}?displayPosition= */
export interface DossierDetail {
  dossier: Dossier;
  content: Record<string, ItemValue>;
  items: DisplayItem[];
  subscribed: boolean;
  favorite: boolean;
}

export interface AggregationResult {
  id: number;
  aggregate: string;
  value: number | null;
  /** count per list option for list fields */
  options?: { id: number; total: number }[];
}

/** GET /api/contentdossier */
export interface DossierListBody {
  results: {
    dossiers: Dossier[];
    /** per dossier id: display item id -> value, for the items of the requested view */
    contents: Record<string, Record<string, ItemValue>>;
    items: DisplayItem[];
    aggregations: AggregationResult[];
    /**
     * with view=gantt on projects: the link to their tasks (gantt_task_link) and the tasks' entity,
     * which members cannot read from the link configuration
     */
    gantt?: { task_link_id: number; task_entity_id: number } | null;
  };
  pager: Pager;
}

/** A display item id as a key of `values`. */
const displayItemKey = z
  .string()
  .regex(/^\d{1,10}$/, DOSSIER_MESSAGES.unknownItem)
  .refine((key) => idSchema.safeParse(Number(key)).success, DOSSIER_MESSAGES.unknownItem);

export const dossierWriteSchema = z.object({
  defDossier: idSchema,
  /** display item id -> value */
  values: z
    .record(displayItemKey, z.unknown(), {
      error: (issue) => (issue.code === 'invalid_key' ? DOSSIER_MESSAGES.unknownItem : undefined),
    })
    .default({}),
  embedded: dossierIdSchema.optional(),
  linkId: idSchema.optional(),
  ignore_existing: z.boolean().default(false),
});

export const dossierUpdateSchema = dossierWriteSchema.omit({
  defDossier: true,
  embedded: true,
  linkId: true,
});

/** 409 answer of a duplicate check. */
export interface DuplicateBody {
  errors: Record<string, string>;
  existing: { id: number; summary: string }[];
  constraint_type: 'warning' | 'error';
}

/** Answers of dossier writes: the dossier's id (create, update, delete), with its state (archive). */
export const dossierIdAnswerSchema = z.object({ id: z.number() });
export const dossierArchivedAnswerSchema = dossierIdAnswerSchema.extend({ archived: z.boolean() });
/** Answers of marks and list values: whether it is now set. */
export const resultAnswerSchema = z.object({ result: z.boolean() });
/** POST /contentdossier/subscriptions: which of the given dossiers the user subscribes to. */
export const subscriptionsAnswerSchema = z.array(z.object({ content_dossier_id: z.number() }));
/** POST /api/displayposition/credentials: per dossier asked, whether its tabs may be shown. */
export const tabsAllowedAnswerSchema = z.array(z.object({ id: z.number(), tabs_allowed: z.boolean() }));
/** GET /api/contentdossier/is-credential-allowed */
export const allowedAnswerSchema = z.object({ allowed: z.boolean() });

export const quickSearchHitSchema = z.object({
  id: z.number(),
  summary: z.string(),
  def_dossier_id: z.number(),
  created_at: z.string(),
});
export type QuickSearchHit = z.infer<typeof quickSearchHitSchema>;
export const quickSearchAnswerSchema = z.array(quickSearchHitSchema);

// ---------- mass update (PUT /api/contentdossier/massupdate)

/** At most this many dossiers in one mass update (or merge series, see below). */
export const MAX_MASS_UPDATE = 1000;

export const MASS_UPDATE_MESSAGES = {
  refused: 'No dossier was changed: the values are refused for the dossiers listed',
  nothing: 'Fill in at least one value',
} as const;

export const massUpdateSchema = z.object({
  /** true: replace the values the dossiers hold; false: fill only empty ones (and add to multiple values) */
  overwrite: z.boolean().default(false),
  defDossier: idSchema,
  /** display item id -> value, as the edit form sends it; an empty value changes nothing */
  update_values: z
    .record(displayItemKey, z.unknown(), {
      error: (issue) => (issue.code === 'invalid_key' ? DOSSIER_MESSAGES.unknownItem : undefined),
    })
    .default({}),
  dossier_ids: z.array(dossierIdSchema).min(1).max(MAX_MASS_UPDATE),
});
export type MassUpdateInput = z.input<typeof massUpdateSchema>;

/** Per refused dossier: why (field errors keyed by display item id, or `dossier`). */
export const dossierReportSchema = z.object({
  id: z.number(),
  summary: z.string(),
  errors: z.record(z.string(), z.string()),
});
export type DossierReport = z.infer<typeof dossierReportSchema>;

export const massUpdateAnswerSchema = z.object({ updated: z.number() });

// ---------- merge (POST /api/contentdossier/merge)

export const MERGE_ACTIONS = ['keep', 'archive', 'delete'] as const;
export type MergeAction = (typeof MERGE_ACTIONS)[number];
export const MERGE_LINK_CHOICES = ['default', 'left', 'right', 'selectedlinks'] as const;
export type MergeLinkChoice = (typeof MERGE_LINK_CHOICES)[number];

export const MERGE_MESSAGES = {
  two: 'Choose two different dossiers of one entity',
  notLinked: 'Choose only dossiers linked to one of the two',
  sameEntity: 'Both dossiers must be of the same entity',
} as const;

/**
 * The spec's body: `dossiers` {action, ids} and `mergeDossier`, a list of field choices and link
 * choices. A field choice names the side its value is taken from (the first of `ids` is left), so
 * the server copies the stored value; a link choice names its display item, the choice and, for
 * selectedlinks, the linked dossiers kept (from either side).
 */
export const mergeSchema = z.object({
  environment: idSchema,
  dossiers: z.object({
    action: z.enum(MERGE_ACTIONS),
    ids: z.tuple([dossierIdSchema, dossierIdSchema]),
  }),
  mergeDossier: z
    .array(
      z.union([
        z.object({ id: idSchema, use: z.enum(['left', 'right']) }),
        z.object({
          link_id: idSchema,
          use_from: z.enum(MERGE_LINK_CHOICES),
          ids: z.array(dossierIdSchema).max(1000).default([]),
        }),
      ]),
    )
    .max(1000)
    .default([]),
});
export type MergeInput = z.input<typeof mergeSchema>;

// ---------- multiple create (POST /api/contentdossier/series)

/** The create call's body with the date item that varies and the repeating rule of its dates. */
export const seriesSchema = dossierWriteSchema.extend({
  dateItem: idSchema,
  recurrence: recurrenceSchema,
});
export type SeriesInput = z.input<typeof seriesSchema>;
export const seriesAnswerSchema = z.object({ ids: z.array(z.number()) });

/** POST /api/contentdossier/archive and /dearchive of a selection: the ids written, and why the others were not. */
export const bulkArchiveAnswerSchema = z.object({
  done: z.array(z.number()),
  failed: z.array(z.object({ id: z.number(), message: z.string() })),
});

/** The top bar's quick search (spec doc 2 section 9): 10 hits, 200 ms after the last key, texts cut at 50. */
export const QUICK_SEARCH_LIMIT = 10;
export const QUICK_SEARCH_DEBOUNCE_MS = 200;
export const QUICK_SEARCH_TEXT_LENGTH = 50;
