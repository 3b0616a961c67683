import {
  type FieldContext,
  getFieldType,
  isEmptyFieldValue,
  parseFieldSettings,
  valueRefsOf,
} from '@dossierbase/core';
import type { Db } from '../../db/database';
import { configCached } from '../../policy/config-cache';
import type { EnvironmentAccess } from '../../policy/environment';
import {
  isRoleRestricted,
  SUMMARY_RULE_COLUMNS,
  summaryItemRule,
  summaryVariants,
} from '../../policy/summary';
import { EDIT_VIEWS } from './items';

// A dossier's summary is written with the dossier: the formatted values of its entity's 'summary' view
// items, joined by a space, and, when some of those items are restricted to roles, one summary per
// visibility class (policy/summary.ts says which, and which one a reader gets). An entity without
// summary items is summarised by its first text field that every reader may see. When what the
// summaries show changes, the stored summaries of the entity are rewritten (summary-refresh.ts).

const MAX_LENGTH = 1000;

/** An entity, as the summary functions name it. */
export type Entity = { id: number; environment_id: number };

/** The entity's summary items in order, with what formatting and visibility need. */
export interface SummaryConfig {
  items: {
    itemId: number;
    dataFieldId: number;
    restricted: boolean;
    type: string;
    settings: Record<string, unknown>;
    ctx: FieldContext;
  }[];
  variants: ReturnType<typeof summaryVariants>;
  /** the data field the summary falls back on, when the entity has no summary items */
  fallback?: number;
}

export interface StoredSummary {
  summary: string;
  summaries: Record<string, string> | null;
}

/** What to leave out of a configuration: a summary item, or a field as the fall-back. */
export interface Without {
  item?: number;
  field?: number;
}

/**
 * The entity's 'summary' view items in order, with the options of list and tree fields, or without
 * any, its fall-back field (summaryFallbackField); read fresh.
 */
export async function loadSummaryConfig(
  db: Db,
  entity: Entity,
  without: Without = {},
): Promise<SummaryConfig> {
  const all = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
    .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
    .select([
      ...SUMMARY_RULE_COLUMNS,
      'd.id',
      'd.settings as data_settings',
      'f.type',
      'f.settings',
      'f.id as field_id',
    ])
    .where('i.environment_id', '=', entity.environment_id)
    .where('i.def_dossier_id', '=', entity.id)
    .where('i.view', '=', 'summary')
    .orderBy('i.rank')
    .orderBy('i.col')
    .orderBy('i.id')
    .execute();
  const rows = all.filter((row) => row.item_id !== without.item);
  if (rows.length === 0) {
    const fallback = await summaryFallbackField(db, entity, without.field);
    return fallback
      ? { items: [fallback], variants: [], fallback: fallback.dataFieldId }
      : { items: [], variants: [] };
  }
  const optionFields = rows.filter((r) => valueRefsOf(r.type) === 'options').map((r) => r.field_id);
  const options = optionFields.length
    ? await db
        .selectFrom('def_field_list')
        .select(['id', 'def_field_id', 'translations'])
        .where('environment_id', '=', entity.environment_id)
        .where('def_field_id', 'in', optionFields)
        .execute()
    : [];
  return {
    items: rows.map((row) => ({
      itemId: row.item_id,
      dataFieldId: row.id,
      restricted: isRoleRestricted(summaryItemRule(row)),
      type: row.type,
      settings: parseFieldSettings(row.type, row.settings, row.data_settings),
      ctx: optionFields.includes(row.field_id)
        ? {
            options: options
              .filter((o) => o.def_field_id === row.field_id)
              .map((o) => ({ id: o.id, label: o.translations[0]?.text })),
          }
        : {},
    })),
    variants: summaryVariants(rows.map(summaryItemRule)),
  };
}

/**
 * The field an entity without summary items is summarised by: its first text field (by data-field
 * id) that is placed in an edit view, and that neither its own roles nor a display item restrict, so
 * the summary is the same for every reader (no variants). `without`: as if that field were not among
 * them.
 */
async function summaryFallbackField(
  db: Db,
  entity: Entity,
  without?: number,
): Promise<SummaryConfig['items'][number] | null> {
  const rows = await db
    .selectFrom('def_dossier_def_field as d')
    .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
    .innerJoin('display_item as i', 'i.def_dossier_def_field_id', 'd.id')
    .select([...SUMMARY_RULE_COLUMNS, 'd.id', 'd.settings as data_settings', 'f.settings', 'i.view'])
    .where('d.environment_id', '=', entity.environment_id)
    .where('d.def_dossier_id', '=', entity.id)
    .where('f.type', '=', 'text')
    .orderBy('d.id')
    .orderBy('i.id')
    .execute();
  for (const id of new Set(rows.map((row) => row.id))) {
    if (id === without) continue;
    const items = rows.filter((row) => row.id === id);
    const placed = items.find((row) => EDIT_VIEWS.includes(row.view));
    if (!placed || items.some((row) => isRoleRestricted(summaryItemRule(row)))) continue;
    return {
      itemId: placed.item_id,
      dataFieldId: id,
      restricted: false,
      type: 'text',
      settings: parseFieldSettings('text', placed.settings, placed.data_settings),
      ctx: {},
    };
  }
  return null;
}

/** The data field of the entity's fall-back summary; null when it has summary items, or no such field. */
export const summaryFallback = async (db: Db, entity: Entity) =>
  (await loadSummaryConfig(db, entity)).fallback ?? null;

/** loadSummaryConfig, cached with the configuration. */
export const summaryConfig = (db: Db, access: EnvironmentAccess, entityId: number) =>
  configCached(access, `summary-items:${entityId}`, () =>
    loadSummaryConfig(db, { id: entityId, environment_id: access.environment.id }),
  );

/**
 * The summary of these values and, with restricted summary items, its variants; a text is empty when
 * none of its items has a value (the dossier is then summarised by its id, see withIdWhenEmpty).
 */
export function computeSummary(config: SummaryConfig, values: Record<string, unknown>): StoredSummary {
  const parts: { itemId: number; restricted: boolean; text: string }[] = [];
  for (const item of config.items) {
    const value = values[String(item.dataFieldId)];
    if (isEmptyFieldValue(value)) continue;
    const text = getFieldType(item.type).format(value, item.settings, 'nl', item.ctx).trim();
    if (text) parts.push({ itemId: item.itemId, restricted: item.restricted, text });
  }
  const join = (kept: typeof parts) =>
    kept
      .map((part) => part.text)
      .join(' ')
      .slice(0, MAX_LENGTH);
  if (config.variants.length === 0) return { summary: join(parts), summaries: null };
  const summaries: Record<string, string> = {};
  for (const { key, visible } of config.variants)
    summaries[key] = join(parts.filter((part) => !part.restricted || visible.has(part.itemId)));
  return { summary: join(parts), summaries };
}

/** A dossier whose summary (or a variant) is empty is summarised by its id. */
export function withIdWhenEmpty(stored: StoredSummary, id: number): StoredSummary {
  const orId = (text: string) => text || `#${id}`;
  return {
    summary: orId(stored.summary),
    summaries: stored.summaries
      ? Object.fromEntries(Object.entries(stored.summaries).map(([key, text]) => [key, orId(text)]))
      : null,
  };
}

export const hasEmptyText = (stored: StoredSummary) =>
  !stored.summary || Object.values(stored.summaries ?? {}).some((text) => !text);
