import { Select, type SelectProps } from '@mantine/core';
import { useLocale } from '../../app/locale-provider';
import { queryName, useEntityQueries } from './queries-api';

type PickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'>;

/**
 * One saved query of an entity, by id (default_query, default_val_dos_query, condition_query) or by
 * uuid (menu queries, limit_output_to_mis_item). A stored query the entity no longer has stays
 * visible as itself, so saving never drops it unseen.
 */
export function QueryPicker({
  entity,
  by = 'id',
  value,
  onChange,
  ...props
}: PickerProps & {
  entity: number;
  by?: 'id' | 'uuid';
  value: unknown;
  onChange: (next: number | string | null) => void;
}) {
  const { locale } = useLocale();
  const { data: queries = [] } = useEntityQueries(entity);
  const current = value === null || value === undefined || value === '' ? null : String(value);
  const options = queries.map((query) => ({
    value: by === 'id' ? String(query.id) : query.uuid,
    label: queryName(query, locale),
  }));
  const data =
    current && !options.some((option) => option.value === current)
      ? [...options, { value: current, label: by === 'id' ? `#${current}` : current }]
      : options;
  return (
    <Select
      {...props}
      clearable
      searchable
      data={data}
      value={current}
      onChange={(next) => onChange(next === null ? null : by === 'id' ? Number(next) : next)}
    />
  );
}
