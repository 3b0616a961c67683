import { fieldTypeOf, type ItemRows } from '../fields/item';
import { isServerComputed } from '../fields/registry';
import { isEmpty } from '../fields/shared';
import {
  type Condition,
  type ConditionOutcome,
  type ConditionValues,
  currentValue,
  evaluateConditions,
} from './conditions';

// Which items of a dossier form are required, one rule for the server's check on save and the
// browser's form (asterisks, the check before sending).

/**
 * Hidden and required items for the current values: a show_fields condition hides its items while it
 * does not match; an obligatory data field or link, or a matching require_fields condition, makes an
 * item required. Item ids as strings.
 */
export function itemRules(
  items: readonly ItemRows[],
  conditions: readonly Condition[],
  values: ConditionValues,
): ConditionOutcome {
  const { hidden, required: byCondition } = evaluateConditions(conditions, values);
  const required = new Set<string>();
  for (const rows of items) {
    const key = String(rows.item.id);
    if (rows.dataField?.obligatory || rows.link?.obligatory || byCondition.has(key)) required.add(key);
  }
  return { hidden, required };
}

/**
 * The ids of the items among `items` that are required, shown and empty. Items whose value the server
 * computes and items without a field or link (dossier data, blocks) are never missing. `values` (by
 * item id) may hold more items than `items`: the conditions read them all.
 */
export function missingRequired(
  items: readonly ItemRows[],
  conditions: readonly Condition[],
  values: ConditionValues,
): string[] {
  const { hidden, required } = itemRules(items, conditions, values);
  return items.flatMap((rows) => {
    const key = String(rows.item.id);
    const type = fieldTypeOf(rows);
    if (type === null || isServerComputed(type) || hidden.has(key) || !required.has(key)) return [];
    return isEmpty(currentValue(values, rows.item.id)) ? [key] : [];
  });
}
