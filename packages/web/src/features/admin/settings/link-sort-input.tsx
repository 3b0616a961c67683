import { Group, SegmentedControl, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDataFields } from '../admin-api';
import { dataFieldLabel, settingOptionLabel } from '../labels';
import { changeAt, RemoveRowButton, SettingRows } from './setting-rows';

type SortEntry = { dddfId: number | string; sort: 'ASC' | 'DESC' };

function readSort(value: unknown): SortEntry[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry) => entry && typeof entry === 'object' && 'dddfId' in entry)
    .map((entry) => ({ dddfId: entry.dddfId, sort: entry.sort === 'DESC' ? 'DESC' : 'ASC' }));
}

/** A link's sort order: data fields of the linked entity, each ascending or descending, first one first. */
export function LinkSortInput({
  label,
  entity,
  value,
  onChange,
  error,
  disabled,
  testId,
}: {
  label: string;
  /** The linked (child) entity, whose data fields the rows pick from. */
  entity: number;
  value: unknown;
  onChange: (next: SortEntry[]) => void;
  error?: string;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const { data: fields = [] } = useDataFields(entity);
  const entries = readSort(value);
  const options = fields.map((field) => ({ value: String(field.id), label: dataFieldLabel(t, field) }));
  const set = (index: number, change: Partial<SortEntry>) => onChange(changeAt(entries, index, change));
  const unused = fields.find((field) => !entries.some((entry) => String(entry.dddfId) === String(field.id)));
  return (
    <SettingRows
      label={label}
      testId={testId}
      error={error}
      disabled={disabled}
      addLabel={t('admin.settings.sort.add')}
      onAdd={unused && (() => onChange([...entries, { dddfId: unused.id, sort: 'ASC' }]))}
    >
      {entries.map((entry, index) => {
        const current = String(entry.dddfId);
        const data = options.some((option) => option.value === current)
          ? options
          : [...options, { value: current, label: `#${current}` }];
        return (
          <Group key={current} gap="xs" align="center" wrap="nowrap">
            <Select
              style={{ flex: 1 }}
              data={data}
              value={current}
              allowDeselect={false}
              searchable
              aria-label={t('admin.settings.sort.field')}
              onChange={(next) => next && set(index, { dddfId: Number(next) })}
              disabled={disabled}
              data-testid={`${testId}-${index}-field`}
            />
            <SegmentedControl
              size="xs"
              data={(['ASC', 'DESC'] as const).map((direction) => ({
                value: direction,
                label: settingOptionLabel(t, 'sort_direction', direction),
              }))}
              value={entry.sort}
              onChange={(next) => set(index, { sort: next === 'DESC' ? 'DESC' : 'ASC' })}
              disabled={disabled}
            />
            <RemoveRowButton
              onClick={() => onChange(entries.filter((_, i) => i !== index))}
              disabled={disabled}
            />
          </Group>
        );
      })}
    </SettingRows>
  );
}
