import { z } from 'zod';

// Entity conditions (def dossier settings.conditions): rules over field values that show or require
// display items. The web runs them while a form is edited; the server runs them again on save.

const itemId = z.union([z.number().int().nonnegative(), z.string().min(1).max(100)]);
const ruleValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const conditionRuleFieldSchema = z.object({
  /** The display item whose value is tested. */
  field: itemId,
  field_method: z.enum(['equals', 'notequals']).default('equals'),
  values: z.array(ruleValue).max(500).default([]),
});

export const conditionRuleSchema = z.object({
  /** 'or': any one field matches; otherwise all fields must match. */
  type: z.enum(['and', 'or']).default('and'),
  fields: z.array(conditionRuleFieldSchema).max(100).default([]),
});

export const conditionActionSchema = z.object({
  type: z.enum(['show_fields', 'require_fields']),
  /** Display item ids. */
  values: z.array(itemId).max(500).default([]),
});

export const conditionSchema = z.object({
  id: z.string().max(100).optional(),
  rules: z.array(conditionRuleSchema).max(50).default([]),
  actions: z.array(conditionActionSchema).max(50).default([]),
});
export const conditionsSchema = z.array(conditionSchema).max(200);

/** An entity's stored conditions (settings.conditions); broken configuration counts as none. */
export function parseConditions(raw: unknown): Condition[] {
  const parsed = conditionsSchema.safeParse(raw ?? []);
  return parsed.success ? parsed.data : [];
}

export type ConditionRuleField = z.output<typeof conditionRuleFieldSchema>;
export type ConditionRule = z.output<typeof conditionRuleSchema>;
export type ConditionAction = z.output<typeof conditionActionSchema>;
export type Condition = z.output<typeof conditionSchema>;

export type DisplayItemId = number | string;

/** Current form values by display item id. */
export type ConditionValues = ReadonlyMap<DisplayItemId, unknown> | Readonly<Record<string, unknown>>;

/** Item ids as strings: 12 and '12' are the same item. */
export interface ConditionOutcome {
  hidden: Set<string>;
  required: Set<string>;
}

/** The value of one item in `values` (a Map or a record keyed by item id). */
export function currentValue(values: ConditionValues, id: DisplayItemId): unknown {
  if (values instanceof Map) return values.has(id) ? values.get(id) : values.get(String(id));
  const record = values as Readonly<Record<string, unknown>>;
  const key = String(id);
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A value as comparable keys: ids, text and numbers as strings; {id} objects by id; lists spread out. */
function keys(value: unknown): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(keys);
  if (typeof value === 'object') {
    return Object.hasOwn(value, 'id') ? keys((value as { id: unknown }).id) : [];
  }
  return [String(value).trim()];
}

/**
 * equals: the field holds one of the rule's values (a multi-value field: any of them), or the rule
 * lists an empty value ('' or null) and the field is empty. notequals is its negation.
 */
export function ruleFieldMatches(rule: ConditionRuleField, values: ConditionValues): boolean {
  const current = keys(currentValue(values, rule.field));
  const wanted = rule.values.map((v) => (v === null ? '' : String(v).trim()));
  const equals =
    current.length === 0 ? wanted.includes('') : current.some((key) => key !== '' && wanted.includes(key));
  return rule.field_method === 'equals' ? equals : !equals;
}

/** A rule without fields does not constrain; a condition matches when all its rules match. */
export function conditionMatches(condition: Condition, values: ConditionValues): boolean {
  return condition.rules.every((rule) => {
    if (rule.fields.length === 0) return true;
    const test = (field: ConditionRuleField) => ruleFieldMatches(field, values);
    return rule.type === 'or' ? rule.fields.some(test) : rule.fields.every(test);
  });
}

/**
 * show_fields: its items are hidden unless the condition matches (another matching condition that
 * shows the same item does not unhide it). require_fields: its items are required when it matches.
 */
export function evaluateConditions(
  conditions: readonly Condition[],
  values: ConditionValues,
): ConditionOutcome {
  const hidden = new Set<string>();
  const required = new Set<string>();
  for (const condition of conditions) {
    const matches = conditionMatches(condition, values);
    for (const action of condition.actions) {
      if (action.type === 'show_fields' && !matches) for (const id of action.values) hidden.add(String(id));
      if (action.type === 'require_fields' && matches)
        for (const id of action.values) required.add(String(id));
    }
  }
  return { hidden, required };
}

/** Display items the rules listen to: the form re-evaluates when one of them changes. */
export function conditionFieldIds(conditions: readonly Condition[]): Set<string> {
  const ids = new Set<string>();
  for (const condition of conditions)
    for (const rule of condition.rules) for (const field of rule.fields) ids.add(String(field.field));
  return ids;
}
