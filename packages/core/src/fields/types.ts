import type { z } from 'zod';
import type { OperatorName } from './operators';

export const FIELD_TYPE_NAMES = [
  'text',
  'textarea',
  'amount',
  'url',
  'email',
  'autoIncrement',
  'calc',
  'imageCode',
  'date',
  'time',
  'file',
  'geolocation',
  'list',
  'tree',
  'user',
  'link',
  'customActionButton',
  'systemdate',
  'systemuser',
] as const;
export type FieldTypeName = (typeof FIELD_TYPE_NAMES)[number];

/** How the SQL compiler casts the value; 'none' means the value is not kept in `values`. */
export type SqlCast = 'text' | 'numeric' | 'bigint' | 'date' | 'timestamptz' | 'interval' | 'jsonb' | 'none';

export const AGGREGATIONS = ['count', 'sum', 'avg', 'min', 'max', 'unique'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export type NormaliseResult<V> = { ok: true; value: V | null } | { ok: false; message: string };

/** A list option as the caller knows it; label already resolved for the locale. */
export interface ListOptionRef {
  id: number;
  label?: string;
  /** marked as the default option (a new dossier starts with it unless settings name another) */
  default?: boolean;
}

/** The dossier's own columns a field can show (systemdate, systemuser). */
export const DOSSIER_COLUMNS = ['created_at', 'modified_at', 'created_by', 'modified_by'] as const;
export type DossierColumn = (typeof DOSSIER_COLUMNS)[number];

/**
 * Where a field's value lives: the dossier's stored `values` (by data-field id), the link table, one
 * of the dossier's own columns, or nowhere (a button).
 */
export type ValueSource =
  | { from: 'values' }
  | { from: 'links' }
  | { from: 'column'; column: DossierColumn }
  | { from: 'none' };

/** What the ids in a value stand for. */
export type ValueRefs = 'options' | 'users' | 'files' | 'dossiers';

export interface UserDisplayRef {
  id: number;
  name?: string;
}

/** What normalise and format may need beyond the value: the clock and the known options/users. */
export interface FieldContext {
  now?: Date;
  currentUserId?: number;
  /** When given, list/tree values must be one of these options. */
  options?: readonly ListOptionRef[];
  /** When given, user values must be one of these users. */
  users?: readonly UserDisplayRef[];
}

// Methods (not arrow properties) so a FieldType<SpecificSettings, number> fits the registry's FieldType.
export interface FieldType<S extends z.ZodObject = z.ZodObject, V = unknown> {
  readonly type: FieldTypeName;
  /** settingsSchema.parse({}) gives the spec's defaults; every key has a default (settings.ts relies on it). */
  readonly settingsSchema: S;
  /** The server computes the value or keeps none: a submitted value is ignored and forms never send it. */
  readonly serverComputed: boolean;
  /** What the ids of the value stand for; null for plain values (text, numbers, dates). */
  readonly refersTo: ValueRefs | null;
  /** Where the value is read from. */
  source(settings: z.output<S>): ValueSource;
  /** The value a new dossier starts with; null: empty. */
  defaultValue(settings: z.output<S>, ctx?: FieldContext): V | null;
  /** Schema of a stored (already normalised) value; null is always allowed (empty). */
  valueSchema(settings: z.output<S>): z.ZodType<V | null>;
  /** Turns user input into the stored value, or a message for the user. Empty input gives null. */
  normalise(raw: unknown, settings: z.output<S>, ctx?: FieldContext): NormaliseResult<V>;
  /** Query-condition operators, from OPERATORS_BY_FIELD_TYPE. */
  readonly operators: readonly OperatorName[];
  readonly aggregations: readonly Aggregation[];
  sortable(settings: z.output<S>): boolean;
  format(value: V | null | undefined, settings: z.output<S>, locale?: string, ctx?: FieldContext): string;
  sqlCast(settings: z.output<S>): SqlCast;
}
