import { DISPLAY_VIEWS } from '@dossierbase/core';
import { MultiSelect, type MultiSelectProps, Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/locale-provider';
import { pickTranslation, useCustomViews, useLinks, useListOptions } from '../admin-api';
import { viewLabel } from '../labels';

// Pickers of the records a setting points at. Each keeps a stored value it no longer offers
// visible (as #id), so saving never drops it unseen.

type Option = { value: string; label: string };
type PickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'>;

function withStored(options: Option[], value: string | null): Option[] {
  return value && !options.some((option) => option.value === value)
    ? [...options, { value, label: `#${value}` }]
    : options;
}

const idOrNull = (value: unknown) =>
  value === null || value === undefined || value === '' ? null : String(value);

/** An id setting (a link, a list option): stored as a number, or null for none. */
function IdSelect({
  options,
  value,
  onChange,
  ...props
}: PickerProps & { options: Option[]; value: unknown; onChange: (next: number | null) => void }) {
  const current = idOrNull(value);
  return (
    <Select
      {...props}
      clearable
      searchable
      data={withStored(options, current)}
      value={current}
      onChange={(next) => onChange(next === null ? null : Number(next))}
    />
  );
}

/** One of the base field's list options (default_list_option). */
export function ListOptionPicker({
  baseField,
  ...props
}: PickerProps & { baseField: number; value: unknown; onChange: (next: number | null) => void }) {
  const { locale } = useLocale();
  const { data: options = [] } = useListOptions(baseField);
  return (
    <IdSelect
      {...props}
      options={[...options]
        .sort((a, b) => a.rank - b.rank || a.id - b.id)
        .map((option) => ({
          value: String(option.id),
          label: pickTranslation(option.translations, locale)?.text ?? `#${option.id}`,
        }))}
    />
  );
}

/**
 * One of an entity's link fields (limit_embedded_link); with `leadingTo`, only those that lead to that
 * entity (a link's child entity's links back to the entity being configured).
 */
export function LinkPicker({
  entity,
  leadingTo,
  ...props
}: PickerProps & {
  entity: number;
  leadingTo?: number;
  value: unknown;
  onChange: (next: number | null) => void;
}) {
  const { data: links = [] } = useLinks(entity);
  const offered = leadingTo ? links.filter((link) => link.child_def_dossier_id === leadingTo) : links;
  return (
    <IdSelect {...props} options={offered.map((link) => ({ value: String(link.id), label: link.name }))} />
  );
}

/** A view of an entity by name: the standard views and, with `customOnly`, only its custom views. */
export function ViewPicker({
  entity,
  customOnly = false,
  value,
  onChange,
  ...props
}: PickerProps & {
  entity: number;
  customOnly?: boolean;
  value: unknown;
  onChange: (next: string) => void;
}) {
  const { t } = useTranslation();
  const { data: custom = [] } = useCustomViews(entity);
  const options = [
    ...(customOnly ? [] : DISPLAY_VIEWS.map((view) => ({ value: view, label: viewLabel(t, view) }))),
    ...custom.map((view) => ({ value: view.view_name, label: view.view_name })),
  ];
  const current = typeof value === 'string' && value !== '' ? value : null;
  // A view is stored by its name, so a view no longer offered still reads as itself.
  const data =
    current && !options.some((option) => option.value === current)
      ? [...options, { value: current, label: current }]
      : options;
  return (
    <Select
      {...props}
      clearable
      searchable
      data={data}
      value={current}
      onChange={(next) => onChange(next ?? '')}
    />
  );
}

/** Weekdays by number, 0 = Monday (restrict_days), named in the interface's language. */
export function WeekdaysPicker({
  value,
  onChange,
  ...props
}: Omit<MultiSelectProps, 'data' | 'value' | 'onChange'> & {
  value: unknown;
  onChange: (next: number[]) => void;
}) {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' });
  // 1 January 2024 was a Monday.
  const days = Array.from({ length: 7 }, (_, day) => ({
    value: String(day),
    label: format.format(new Date(Date.UTC(2024, 0, 1 + day))),
  }));
  const chosen = Array.isArray(value) ? value.map(String) : [];
  return (
    <MultiSelect
      {...props}
      data={days}
      value={chosen}
      onChange={(next) => onChange(next.map(Number).sort((a, b) => a - b))}
    />
  );
}
