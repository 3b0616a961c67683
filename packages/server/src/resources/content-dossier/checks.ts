import {
  DOSSIER_MESSAGES,
  fieldSettingsOf,
  missingRequired,
  parseConditions,
  parseFieldSettings,
} from '@dossierbase/core';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { HttpError } from '../../http-errors';
import type { VisibleItem } from '../../policy/display-item';
import type { EntityScope } from '../../policy/entity';
import { readerSummaryKeys } from '../../policy/summary';
import { visibleSummary } from '../../query/visible-summary';
import type { EntityRow } from './read-model';

// The checks of a dossier's values as a whole, after each value was normalised: required items
// (obligatory, or required by a condition of the entity) and unique text values.

/** Values keyed by display item id (for conditions), from values keyed by data-field id. */
function valuesByItem(items: VisibleItem[], values: Record<string, unknown>, links: Map<number, number[]>) {
  const byItem: Record<string, unknown> = {};
  for (const v of items) {
    if (v.dataField) byItem[String(v.item.id)] = values[String(v.dataField.id)] ?? null;
    else if (v.link) byItem[String(v.item.id)] = links.get(v.item.id) ?? [];
  }
  return byItem;
}

/**
 * Adds `required` to `errors` for each item of `checked` that must have a value and has none (core
 * missingRequired, the rule the form applies); an item that already has an error keeps it.
 */
export function checkRequired(
  entity: EntityRow,
  checked: VisibleItem[],
  allItems: VisibleItem[],
  values: Record<string, unknown>,
  links: Map<number, number[]>,
  errors: Record<string, string>,
) {
  const conditions = parseConditions(entity.settings.conditions);
  for (const id of missingRequired(checked, conditions, valuesByItem(allItems, values, links)))
    errors[id] ??= DOSSIER_MESSAGES.required;
}

/** Duplicate check of text fields with the UniqueValue validator: 409 with the dossiers that hold them. */
export async function checkDuplicates(
  db: Db,
  scope: EntityScope,
  items: VisibleItem[],
  values: Record<string, unknown>,
  selfId: number | null,
) {
  const errors: Record<string, string> = {};
  const existing = new Map<number, string>();
  for (const v of items) {
    if (!v.dataField || v.field?.type !== 'text') continue;
    if (!parseFieldSettings('text', fieldSettingsOf(v)).validators.includes('UniqueValue')) continue;
    const value = values[String(v.dataField.id)];
    if (typeof value !== 'string' || value === '') continue;
    let query = db
      .selectFrom('content_dossier')
      .select(['id', 'summary', 'summaries'])
      .where('environment_id', '=', scope.access.environment.id)
      .where('def_dossier_id', '=', scope.entity.id)
      .where(sql<string>`"values" ->> ${String(v.dataField.id)}`, '=', value);
    if (selfId !== null) query = query.where('id', '!=', selfId);
    const rows = await query.limit(10).execute();
    if (rows.length) {
      errors[String(v.item.id)] = DOSSIER_MESSAGES.duplicate;
      const key = (await readerSummaryKeys(db, scope.access)).get(scope.entity.id);
      for (const row of rows) existing.set(Number(row.id), visibleSummary(row, key));
    }
  }
  if (Object.keys(errors).length === 0) return;
  throw new HttpError(409, {
    errors,
    existing: [...existing].map(([id, summary]) => ({ id, summary })),
    constraint_type: 'warning',
  });
}
