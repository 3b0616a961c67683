import { type FieldContext, getFieldType, isEmptyFieldValue, parseFieldSettings } from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { configCached } from '../../policy/config-cache';
import type { EnvironmentAccess } from '../../policy/environment';
import { isRoleRestricted, summaryVariants } from '../../policy/summary';

// A dossier's summary is written with the dossier: the formatted values of its entity's 'summary' view
// items, joined by a space, and, when some of those items are restricted to roles, one summary per
// visibility class (policy/summary.ts says which, and which one a reader gets). When the summary items
// change, the stored summaries of the entity are rewritten (withSummaryRefresh).

const MAX_LENGTH = 1000;
const REFRESH_BATCH = 1000;
/** After rewriting this many summaries, the table's statistics are refreshed for the planner. */
const ANALYZE_AFTER = 10_000;

/** An entity, as the summary functions name it. */
export type Entity = { id: number; environment_id: number };

/** The entity's summary items in order, with what formatting and visibility need. */
export interface SummaryConfig {
  items: {
    itemId: number;
    dataFieldId: number;
    restricted: boolean;
    type: string;
    settings: unknown;
    ctx: FieldContext;
  }[];
  variants: ReturnType<typeof summaryVariants>;
}

export interface StoredSummary {
  summary: string;
  summaries: Record<string, string> | null;
}

/**
 * The entity's 'summary' view items in order, with the options of list and tree fields; read fresh.
 * `without`: as if that item were not among them.
 */
export async function loadSummaryConfig(db: Db, entity: Entity, without?: number): Promise<SummaryConfig> {
  const all = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
    .innerJoin('def_field as f', 'f.id', 'd.def_field_id')
    .select([
      'i.id as item_id',
      'i.roles',
      'i.permissions_type',
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
  const rows = all.filter((row) => row.item_id !== without);
  const optionFields = rows.filter((r) => r.type === 'list' || r.type === 'tree').map((r) => r.field_id);
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
      restricted: isRoleRestricted(row),
      type: row.type,
      settings: parseFieldSettings(row.type, { ...row.settings, ...row.data_settings }),
      ctx: optionFields.includes(row.field_id)
        ? {
            options: options
              .filter((o) => o.def_field_id === row.field_id)
              .map((o) => ({ id: o.id, label: o.translations[0]?.text })),
          }
        : {},
    })),
    variants: summaryVariants(rows.map((row) => ({ ...row, id: row.item_id }))),
  };
}

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
    const text = getFieldType(item.type)
      .format(value, item.settings as never, 'nl', item.ctx)
      .trim();
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

/**
 * Rewrites the stored summaries of the entity's dossiers under its summary items as they are now (or
 * without the item `without`), a batch of ids at a time, each batch on its own; only rows whose texts
 * change are written. `since`: only dossiers modified since then. Answers how many were written.
 */
export async function refreshSummaries(
  db: Db,
  entity: Entity,
  options: { since?: Date; without?: number } = {},
): Promise<number> {
  const config = await loadSummaryConfig(db, entity, options.without);
  let after = 0;
  let written = 0;
  for (;;) {
    let query = db
      .selectFrom('content_dossier')
      .select(['id', 'values'])
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .where('id', '>', after)
      .orderBy('id')
      .limit(REFRESH_BATCH);
    if (options.since) query = query.where('modified_at', '>=', options.since);
    const rows = await query.execute();
    if (rows.length === 0) return written;
    const texts = rows.map((row) => ({
      id: Number(row.id),
      ...withIdWhenEmpty(computeSummary(config, row.values as Record<string, unknown>), Number(row.id)),
    }));
    const result = await sql`update content_dossier c set summary = x.summary, summaries = x.summaries
      from jsonb_to_recordset(cast(${JSON.stringify(texts)} as jsonb)) as x(id bigint, summary text, summaries jsonb)
      where c.environment_id = ${entity.environment_id} and c.id = x.id and (c.summary, c.summaries) is distinct from (x.summary, x.summaries)`.execute(
      db,
    );
    written += Number(result.numAffectedRows ?? 0);
    after = Number(rows[rows.length - 1].id);
  }
}

/**
 * Runs a change of the entity's summary items, then rewrites the stored summaries of its dossiers,
 * a batch at a time: no transaction holds a million rows, and every step is safe for readers.
 * - A dossier not yet rewritten has no variant under the keys of the new items (policy/summary.ts,
 *   summaryVariantKey): a reader who may not see every item is shown its id meanwhile.
 * - A restricted item that leaves the summary (`leaving`) would stay in the full summaries not yet
 *   rewritten, which readers who see every remaining item read: they are rewritten without it first,
 *   before the change is written.
 * Dossiers that requests begun under the old items wrote meanwhile are rewritten once more at the end.
 */
export async function withSummaryRefresh<T>(
  db: Db,
  entity: Entity,
  change: (db: Db) => Promise<T>,
  leaving?: number,
): Promise<T> {
  const started = new Date(Date.now() - 60_000);
  let written = leaving === undefined ? 0 : await refreshSummaries(db, entity, { without: leaving });
  const result = await change(db);
  written += await refreshSummaries(db, entity);
  written += await refreshSummaries(db, entity, { since: started });
  // the planner's estimates of summary searches come from the statistics of the rewritten texts
  if (written >= ANALYZE_AFTER) await sql`analyze content_dossier`.execute(db);
  return result;
}

/**
 * Writes the variants of dossiers that have none while their entity has restricted summary items
 * (written before the variants existed): their readers who may not see every item are shown the id
 * meanwhile. Run in the background at start; a no-op once done.
 */
export async function writeMissingVariants(db: Db): Promise<void> {
  const entities = await db
    .selectFrom('display_item as i')
    .innerJoin('def_dossier_def_field as d', 'd.id', 'i.def_dossier_def_field_id')
    .select(['i.environment_id', 'i.def_dossier_id as id'])
    .distinct()
    .where('i.view', '=', 'summary')
    .where((eb) =>
      eb.or([
        eb('i.permissions_type', '=', 'INCLUDE_SELECTED_ROLES'),
        sql<boolean>`cardinality(i.roles) > 0`,
      ]),
    )
    .execute();
  for (const entity of entities) {
    const missing = await db
      .selectFrom('content_dossier')
      .select('id')
      .where('environment_id', '=', entity.environment_id)
      .where('def_dossier_id', '=', entity.id)
      .where('summaries', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (missing) await withSummaryRefresh(db, entity, async () => undefined);
  }
}
