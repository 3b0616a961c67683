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

/** How the SQL compiler casts the JSONB value; 'none' means the value is not kept in `values`. */
export type SqlCast = 'text' | 'numeric' | 'bigint' | 'date' | 'timestamptz' | 'interval' | 'jsonb' | 'none';

export const AGGREGATIONS = ['count', 'sum', 'avg', 'min', 'max', 'unique'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export type NormaliseResult<V> = { ok: true; value: V | null } | { ok: false; message: string };

/** A list option as the caller knows it; label already resolved for the locale. */
export interface ListOptionRef {
  id: number;
  label?: string;
}

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
export interface FieldType<S extends z.ZodType = z.ZodType, V = unknown> {
  readonly type: FieldTypeName;
  /** settingsSchema.parse({}) gives the spec's defaults. */
  readonly settingsSchema: S;
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
