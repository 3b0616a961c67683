import { getFieldType, isFieldTypeName, parseFieldSettings } from '@dossierbase/core';

// Which control each field setting gets in the admin editors. Simple settings are read from the
// type's settings schema (a flag is a switch, a number a number box, an enum a select); settings that
// hold ids, views, weekdays or lists of records get a control of their own, named here by key. No
// setting is edited as raw JSON: settings-labels.test.ts checks every key of every type.

/** Whose views, custom views, links or fields a picker offers: the edited entity's or the link's child's. */
export type SettingTarget = 'entity' | 'child';

/** Settings that point at something the product does not have yet; they are not shown until it has. */
export type AwaitedResource = 'blocks' | 'reports' | 'events' | 'templates';

export type SettingControl =
  | { kind: 'switch' }
  | { kind: 'number'; min?: number; max?: number }
  | { kind: 'text' }
  /** One of the schema's values, each with a label from admin.settings.options.<group>. */
  | { kind: 'choice'; group: string; options: readonly string[] }
  | { kind: 'choices'; group: string; options: readonly string[] }
  | { kind: 'currency'; options: readonly string[] }
  | { kind: 'weekdays' }
  | { kind: 'deadlines' }
  | { kind: 'list-option' }
  | { kind: 'view'; of: SettingTarget }
  | { kind: 'custom-view'; of: SettingTarget }
  | { kind: 'link'; of: SettingTarget }
  | { kind: 'sort'; of: SettingTarget }
  /** A saved query of the target entity, stored by id or by uuid. */
  | { kind: 'query'; of: SettingTarget; by: 'id' | 'uuid' }
  | { kind: 'awaiting'; resource: AwaitedResource }
  /** Found no control: the schema holds something the editor cannot show (the test fails on it). */
  | { kind: 'unknown' };

/** Settings whose control is not what their schema shape alone says. */
const BY_KEY: Record<string, SettingControl> = {
  currency: { kind: 'currency', options: [] }, // options filled from the schema
  restrict_days: { kind: 'weekdays' },
  deadline: { kind: 'deadlines' },
  default_list_option: { kind: 'list-option' },
  passing_sidebar: { kind: 'view', of: 'child' },
  custom_view: { kind: 'custom-view', of: 'child' },
  limit_embedded_link: { kind: 'link', of: 'child' },
  sort: { kind: 'sort', of: 'child' },
  popup_view: { kind: 'view', of: 'entity' },
  popup_custom_view: { kind: 'custom-view', of: 'entity' },
  default_val_dos_query: { kind: 'query', of: 'child', by: 'id' },
  limit_output_to_mis_item: { kind: 'query', of: 'child', by: 'uuid' },
  condition_query: { kind: 'query', of: 'entity', by: 'id' },
  block: { kind: 'awaiting', resource: 'blocks' },
  report: { kind: 'awaiting', resource: 'reports' },
  event_id: { kind: 'awaiting', resource: 'events' },
  kedocx: { kind: 'awaiting', resource: 'templates' },
};

/** Keys whose values share one set of option labels. */
const OPTION_GROUPS: Record<string, string> = {
  kedocx_format: 'format',
  report_format: 'format',
};

/** The display item's own settings (beside the field type's), edited in the display field editor. */
export const DISPLAY_ITEM_SETTINGS: Record<string, SettingControl> = {
  show_info_direct: { kind: 'switch' },
  condition_query: BY_KEY.condition_query,
};

interface ZodLike {
  _zod?: { def?: Record<string, unknown> };
  minValue?: number | null;
  maxValue?: number | null;
}

const defOf = (schema: unknown): Record<string, unknown> => (schema as ZodLike)?._zod?.def ?? {};

/** The schema under defaults, optionals and pipes. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    const type = def.type as string | undefined;
    if (type && ['default', 'optional', 'nullable', 'prefault', 'catch', 'readonly'].includes(type)) {
      current = def.innerType;
    } else if (type === 'pipe') {
      current = defOf(def.out).type === 'transform' ? def.in : def.out;
    } else return current;
  }
  return current;
}

export function enumValues(schema: unknown): string[] | undefined {
  const def = defOf(unwrap(schema));
  if (def.type !== 'enum') return undefined;
  return Object.values((def.entries as Record<string, string>) ?? {}).map(String);
}

const finite = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The control of one setting, from its key and its schema. */
export function settingControl(key: string, schema: unknown): SettingControl {
  const byKey = BY_KEY[key];
  if (byKey?.kind === 'currency') return { kind: 'currency', options: enumValues(schema) ?? [] };
  if (byKey) return byKey;
  const inner = unwrap(schema);
  const type = defOf(inner).type;
  if (type === 'boolean') return { kind: 'switch' };
  if (type === 'number') {
    const number = inner as ZodLike;
    return { kind: 'number', min: finite(number.minValue), max: finite(number.maxValue) };
  }
  const group = OPTION_GROUPS[key] ?? key;
  const options = enumValues(inner);
  if (options) return { kind: 'choice', group, options };
  if (type === 'array') {
    const element = enumValues(defOf(inner).element);
    if (element) return { kind: 'choices', group, options: element };
  }
  if (type === 'string') return { kind: 'text' };
  return { kind: 'unknown' };
}

export interface SettingShape {
  key: string;
  control: SettingControl;
  /** The type's default for the key. */
  fallback: unknown;
}

/** The settings of a field type in schema order, each with its control and default. */
export function settingsShape(type: string): SettingShape[] {
  if (!isFieldTypeName(type)) return [];
  const schema = getFieldType(type).settingsSchema;
  const defaults: Record<string, unknown> = parseFieldSettings(type);
  return Object.entries(schema.shape).map(([key, field]) => ({
    key,
    control: settingControl(key, field),
    fallback: defaults[key],
  }));
}
