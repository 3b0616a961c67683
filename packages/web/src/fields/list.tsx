import { type ListOption, type ListSettings, parseFieldSettings, type TreeSettings } from '@dossierbase/core';
import { Badge, Checkbox, Group, MultiSelect, Radio, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { emitNormalised, idsOf, idsToValue, itemOptions, optionLabel } from './helpers';
import { useFieldLocale } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** The options offered: the page's, else the item's def_field_lists (the server already hid the restricted ones). */
export function useListOptions(item: FieldEditorProps['item'], options?: readonly ListOption[]) {
  const locale = useFieldLocale();
  const list = options && options.length > 0 ? [...options] : itemOptions(item);
  return list.map((o) => ({ value: String(o.id), label: optionLabel(o, locale), color: o.color, id: o.id }));
}

/**
 * Select / MultiSelect, or checkboxes (multiple) / radios (single) with checkbox_view,
 * laid out in a row with checkbox_view_horizontal. Also used for tree fields (type="tree").
 */
export function ListEditor(props: FieldEditorProps & { type?: 'list' | 'tree' }) {
  const { t } = useTranslation();
  const type = props.type ?? 'list';
  // a tree has only `multiple`; the list's display settings stay off for it
  const settings: TreeSettings & Partial<ListSettings> = parseFieldSettings(type, props.settings);
  const offered = useListOptions(props.item, props.options);
  const selected = idsOf(props.value).map(String);
  // An already selected option that is no longer offered stays visible (spec).
  const data = [
    ...offered,
    ...selected
      .filter((id) => !offered.some((o) => o.value === id))
      .map((id) => ({ value: id, label: `#${id}`, color: null, id: Number(id) })),
  ];
  const emit = (ids: string[]) => emitNormalised(props, type, idsToValue(ids.map(Number), settings.multiple));
  const common = {
    label: props.label,
    description: props.description,
    withAsterisk: props.required,
    error: props.error,
    disabled: props.disabled,
  };
  const select = data.map(({ value, label }) => ({ value, label }));
  // the group is described by the error (Mantine's groups do that); each box is marked invalid with it
  const invalid = props.error ? true : undefined;

  if (settings.checkbox_view) {
    const Layout = settings.checkbox_view_horizontal ? Group : Stack;
    const Choice = settings.multiple ? Checkbox : Radio;
    const choices = (
      <Layout gap="xs" mt={4}>
        {data.map((o) => (
          <Choice
            key={o.value}
            value={o.value}
            label={o.label}
            color={o.color ?? undefined}
            aria-invalid={invalid}
          />
        ))}
      </Layout>
    );
    if (settings.multiple) {
      return (
        <Checkbox.Group {...common} value={selected} onChange={emit}>
          {choices}
        </Checkbox.Group>
      );
    }
    return (
      <Radio.Group {...common} value={selected[0] ?? null} onChange={(v) => emit(v ? [v] : [])}>
        {choices}
      </Radio.Group>
    );
  }
  if (settings.multiple) {
    return <MultiSelect {...common} data={select} value={selected} onChange={emit} searchable clearable />;
  }
  return (
    <Select
      {...common}
      data={select}
      value={selected[0] ?? null}
      onChange={(v) => emit(v ? [v] : [])}
      searchable
      clearable
      placeholder={t('fields.list.choose')}
    />
  );
}

/** Selected options as badges in their option colour. */
export function ListDisplay({ value, item, options }: FieldDisplayProps) {
  const offered = useListOptions(item, options);
  const ids = idsOf(value);
  if (ids.length === 0) return null;
  return (
    <Group gap={4}>
      {ids.map((id) => {
        const o = offered.find((x) => x.id === id);
        return (
          <Badge key={id} color={o?.color || 'gray'} variant={o?.color ? 'filled' : 'light'} tt="none">
            {o?.label ?? `#${id}`}
          </Badge>
        );
      })}
    </Group>
  );
}
