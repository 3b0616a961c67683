import { getFieldType, isFieldTypeName } from '@dossierbase/core';
import { MultiSelect, NumberInput, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

type Settings = Record<string, unknown>;

interface Introspected {
  kind: 'boolean' | 'number' | 'string' | 'enum' | 'enum-list' | 'json';
  options?: string[];
}

interface ZodLike {
  _zod?: { def?: Record<string, unknown> };
}

function defOf(schema: unknown): Record<string, unknown> {
  return (schema as ZodLike)?._zod?.def ?? {};
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    const type = def.type as string | undefined;
    if (
      type &&
      ['default', 'optional', 'nullable', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(type)
    ) {
      current = def.innerType;
    } else if (type === 'pipe') {
      const out = defOf(def.out).type;
      current = out === 'transform' ? def.in : def.out;
    } else return current;
  }
  return current;
}

function enumOptions(schema: unknown): string[] | undefined {
  const def = defOf(schema);
  if (def.type !== 'enum') return undefined;
  return Object.values((def.entries as Record<string, string>) ?? {}).map(String);
}

/** What control a registry setting gets: switch, number, text, select, multi-select, or JSON text. */
export function introspect(schema: unknown, defaultValue: unknown): Introspected {
  const inner = unwrap(schema);
  const type = defOf(inner).type as string | undefined;
  if (type === 'boolean' || typeof defaultValue === 'boolean') return { kind: 'boolean' };
  if (type === 'number' || typeof defaultValue === 'number') return { kind: 'number' };
  const options = enumOptions(inner);
  if (options) return { kind: 'enum', options };
  if (type === 'array') {
    const element = enumOptions(unwrap(defOf(inner).element));
    if (element) return { kind: 'enum-list', options: element };
    return { kind: 'json' };
  }
  if (type === 'string' || typeof defaultValue === 'string') return { kind: 'string' };
  return { kind: 'json' };
}

export function settingsShape(type: string): { key: string; control: Introspected; fallback: unknown }[] {
  if (!isFieldTypeName(type)) return [];
  const schema = getFieldType(type).settingsSchema as z.ZodType & { shape?: Record<string, unknown> };
  const shape = schema.shape ?? (defOf(schema).shape as Record<string, unknown> | undefined) ?? {};
  let defaults: Settings = {};
  try {
    defaults = schema.parse({}) as Settings;
  } catch {
    defaults = {};
  }
  return Object.entries(shape).map(([key, field]) => ({
    key,
    control: introspect(field, defaults[key]),
    fallback: defaults[key],
  }));
}

/** Defaults of the type merged under the stored settings. */
export function settingsWithDefaults(type: string, settings: Settings | undefined): Settings {
  if (!isFieldTypeName(type)) return { ...(settings ?? {}) };
  const defaults: Settings = {};
  for (const { key, fallback } of settingsShape(type)) defaults[key] = fallback;
  return { ...defaults, ...(settings ?? {}) };
}

const label = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The type-specific settings form, generated from the field registry's settingsSchema. */
export function SettingsFields({
  type,
  value,
  onChange,
  errors,
  disabled,
}: {
  type: string;
  value: Settings;
  onChange: (next: Settings) => void;
  errors?: Record<string, string>;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const shape = settingsShape(type);
  if (shape.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="settings-none">
        {t('admin.no_settings')}
      </Text>
    );
  }
  const set = (key: string, next: unknown) => onChange({ ...value, [key]: next });
  return (
    <Stack gap="xs" data-testid="settings-fields">
      {shape.map(({ key, control, fallback }) => (
        <div key={key}>{renderControl(key, control, fallback)}</div>
      ))}
    </Stack>
  );

  function renderControl(key: string, control: Introspected, fallback: unknown) {
    const current = value[key] ?? fallback;
    const common = {
      key,
      label: label(key),
      error: errors?.[key],
      disabled,
      'data-testid': `setting-${key}`,
    };
    switch (control.kind) {
      case 'boolean':
        return (
          <Switch
            {...common}
            checked={current === true}
            onChange={(event) => set(key, event.currentTarget.checked)}
          />
        );
      case 'number':
        return (
          <NumberInput
            {...common}
            value={typeof current === 'number' ? current : ''}
            onChange={(next) => set(key, typeof next === 'number' ? next : undefined)}
          />
        );
      case 'enum':
        return (
          <Select
            {...common}
            data={control.options ?? []}
            value={typeof current === 'string' ? current : null}
            onChange={(next) => set(key, next ?? fallback)}
          />
        );
      case 'enum-list':
        return (
          <MultiSelect
            {...common}
            data={control.options ?? []}
            value={Array.isArray(current) ? current.map(String) : []}
            onChange={(next) => set(key, next)}
          />
        );
      case 'string':
        return (
          <TextInput
            {...common}
            value={typeof current === 'string' ? current : ''}
            onChange={(event) => set(key, event.currentTarget.value)}
          />
        );
      default:
        return (
          <Textarea
            {...common}
            autosize
            minRows={1}
            defaultValue={current === undefined || current === null ? '' : JSON.stringify(current)}
            onBlur={(event) => {
              const text = event.currentTarget.value.trim();
              if (!text) return set(key, fallback ?? null);
              try {
                set(key, JSON.parse(text));
              } catch {
                // Left as it was: the text is not JSON.
              }
            }}
          />
        );
    }
  }
}
