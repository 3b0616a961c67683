import {
  type OperatorName,
  operatorValueKind,
  operatorValueSchema,
  parseFieldSettings,
  valueRefsOf,
} from '@dossierbase/core';
import { Group, Input, MultiSelect, RangeSlider, Select, Slider, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AGE_SLIDER,
  ageRangeToDates,
  applyDateMask,
  datesToAgeRange,
  digitsOnly,
  filterAmountInput,
  formatFieldValue,
  itemFieldType,
  operatorLabelKey,
  operatorsOf,
  searchDateToIso,
  splitRange,
} from './helpers';
import { useListOptions } from './list';
import type { FieldSearchProps } from './types';
import { useUserSearch } from './user';

export function useOperatorLabel() {
  const { t } = useTranslation();
  return (operator: string) => {
    const { key, parts } = operatorLabelKey(operator);
    return parts ? t(key, { dir: t(parts.dir), bound: t(parts.bound), unit: t(parts.unit) }) : t(key);
  };
}

/**
 * Names of a search input's parts (its value, or the ends of a range): the field's label sits on the
 * operator, so each part is named by the field and the part.
 */
function usePartNames(label: FieldSearchProps['label']) {
  const { t } = useTranslation();
  const field = typeof label === 'string' ? label : '';
  return (part: 'value' | 'from' | 'to') => `${field} ${t(`fields.search.${part}`)}`.trim();
}

/** Whether a search value is complete for its operator (the query schema of the registry). */
export function isSearchValueValid(type: string, value: FieldSearchProps['value']): boolean {
  if (!value) return false;
  return operatorValueSchema(type, value.operator).safeParse(value.value).success;
}

/**
 * Date search with show_slider: an age range slider (18-120 years) searching the matching birth dates
 * (date_between). Untouched, it does not filter.
 */
function AgeSliderSearch(props: FieldSearchProps) {
  const { t } = useTranslation();
  const partName = usePartNames(props.label);
  const stored = datesToAgeRange(props.value?.operator === 'date_between' ? props.value.value : null) ?? [
    AGE_SLIDER.min,
    AGE_SLIDER.max,
  ];
  const storedKey = stored.join('-');
  const [range, setRange] = useState<[number, number]>(stored);
  // A reset (or another stored value) moves the thumbs; dragging itself does not remount the slider.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the stored range by its key
  useEffect(() => setRange(stored), [storedKey]);
  return (
    <Input.Wrapper label={props.label} description={t('fields.search.age', { min: range[0], max: range[1] })}>
      <RangeSlider
        mt="xs"
        mb="lg"
        min={AGE_SLIDER.min}
        max={AGE_SLIDER.max}
        minRange={0}
        value={range}
        onChange={setRange}
        marks={[
          { value: AGE_SLIDER.min, label: String(AGE_SLIDER.min) },
          { value: 65, label: '65' },
          { value: AGE_SLIDER.max, label: String(AGE_SLIDER.max) },
        ]}
        thumbFromLabel={partName('from')}
        thumbToLabel={partName('to')}
        data-testid="search-age-slider"
        onChangeEnd={(next) =>
          props.onChange(
            next[0] === AGE_SLIDER.min && next[1] === AGE_SLIDER.max
              ? null
              : { operator: 'date_between', value: ageRangeToDates(next) },
          )
        }
      />
    </Input.Wrapper>
  );
}

/**
 * Operator picker (the registry's operators for the type) plus a value input for the operator's
 * value kind. Dates are typed DD-MM-YYYY and sent as YYYY-MM-DD; ranges as "a,b".
 */
export function FieldSearchInput(props: FieldSearchProps) {
  const { t } = useTranslation();
  const label = useOperatorLabel();
  const partName = usePartNames(props.label);
  const type = itemFieldType(props.item) ?? '';
  const operators = operatorsOf(type);
  const operator = props.value?.operator ?? null;
  const kind = operator ? operatorValueKind(type, operator) : 'none';
  const options = useListOptions(props.item, props.options);
  // user fields: one user, or several at once (in)
  const ofUsers = valueRefsOf(type) === 'users';
  const { setSearch, users } = useUserSearch(
    kind === 'user' || (kind === 'options' && ofUsers) ? props.loadUsers : undefined,
    props.users,
  );
  // show_slider and max_slider of dates, amounts and calculations
  const slider = parseFieldSettings(type, props.settings);
  if (operators.length === 0) return null;
  if (type === 'date' && slider.show_slider === true) return <AgeSliderSearch {...props} />;

  const setValue = (value: unknown) => operator && props.onChange({ operator, value });
  const raw = props.value?.value;
  const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  const isoToNl = (iso: string) => (iso ? formatFieldValue('date', iso, {}) || iso : '');
  const named = (part: 'value' | 'from' | 'to') => ({ 'aria-label': partName(part) });
  const dateInput = (
    value: string,
    onChange: (iso: string) => void,
    key: string,
    part: 'value' | 'from' | 'to',
  ) => (
    <TextInput
      key={key}
      {...named(part)}
      placeholder="DD-MM-YYYY"
      inputMode="numeric"
      defaultValue={isoToNl(value)}
      onChange={(e) => {
        const masked = applyDateMask(e.currentTarget.value);
        e.currentTarget.value = masked;
        onChange(searchDateToIso(masked) ?? '');
      }}
    />
  );

  let input: React.ReactNode = null;
  switch (kind) {
    case 'text':
      input = (
        <TextInput {...named('value')} value={text} onChange={(e) => setValue(e.currentTarget.value)} />
      );
      break;
    case 'number': {
      const field = (
        <TextInput
          {...named('value')}
          inputMode="decimal"
          value={text}
          onChange={(e) =>
            setValue(filterAmountInput(e.currentTarget.value).replace(',', '.').replace(/\s/g, ''))
          }
        />
      );
      // show_slider: a slider from 0 to max_slider sets the same value.
      const max = typeof slider.max_slider === 'number' ? slider.max_slider : 1000;
      input =
        slider.show_slider === true ? (
          <Stack gap={4}>
            {field}
            <Slider
              min={0}
              max={max}
              step={max > 100 ? 1 : 0.1}
              value={Math.min(Number(text) || 0, max)}
              thumbLabel={partName('value')}
              data-testid="search-number-slider"
              onChange={(v) => setValue(String(v))}
            />
          </Stack>
        ) : (
          field
        );
      break;
    }
    case 'count':
      input = (
        <TextInput
          {...named('value')}
          inputMode="numeric"
          value={text}
          onChange={(e) => setValue(digitsOnly(e.currentTarget.value))}
        />
      );
      break;
    case 'count_range': {
      const [a, b] = splitRange(raw);
      input = (
        <Group gap={4} wrap="nowrap">
          <TextInput
            {...named('from')}
            inputMode="numeric"
            value={a}
            onChange={(e) => setValue(`${digitsOnly(e.currentTarget.value)},${b}`)}
          />
          <TextInput
            {...named('to')}
            inputMode="numeric"
            value={b}
            onChange={(e) => setValue(`${a},${digitsOnly(e.currentTarget.value)}`)}
          />
        </Group>
      );
      break;
    }
    case 'date': {
      const empty = raw === 'NULL' || raw === 'NOT NULL';
      const date = empty ? null : dateInput(text, setValue, `${operator}-date`, 'value');
      input = props.emptyDates ? (
        <Group gap={4} wrap="nowrap">
          <Select
            aria-label={t('fields.search.date_mode')}
            data={(['date', 'NULL', 'NOT NULL'] as const).map((mode) => ({
              value: mode,
              label: t(`fields.search.date_modes.${mode}`),
            }))}
            value={empty ? raw : 'date'}
            onChange={(mode) => setValue(mode === 'date' || mode === null ? '' : mode)}
            allowDeselect={false}
            w={200}
            comboboxProps={{ withinPortal: true }}
            data-testid="search-date-mode"
          />
          {date}
        </Group>
      ) : (
        date
      );
      break;
    }
    case 'date_range': {
      const [a, b] = splitRange(raw);
      input = (
        <Group gap={4} wrap="nowrap">
          {dateInput(a, (iso) => setValue(`${iso},${b}`), `${operator}-from`, 'from')}
          {dateInput(b, (iso) => setValue(`${a},${iso}`), `${operator}-to`, 'to')}
        </Group>
      );
      break;
    }
    case 'option':
      input = (
        <Select
          {...named('value')}
          data={[
            { value: 'EMPTY', label: t('fields.search.empty') },
            ...options.map(({ value, label }) => ({ value, label })),
          ]}
          value={raw === undefined || raw === null ? null : String(raw)}
          onChange={(v) => setValue(v === 'EMPTY' || v === null ? v : Number(v))}
          searchable
        />
      );
      break;
    case 'options':
      input = ofUsers ? (
        <MultiSelect
          {...named('value')}
          data={users.map((u) => ({ value: String(u.id), label: u.name }))}
          value={Array.isArray(raw) ? raw.map(String) : []}
          onChange={(v) => setValue(v.map(Number))}
          onSearchChange={setSearch}
          searchable
        />
      ) : (
        <MultiSelect
          {...named('value')}
          data={[
            { value: 'EMPTY', label: t('fields.search.empty') },
            ...options.map(({ value, label }) => ({ value, label })),
          ]}
          value={Array.isArray(raw) ? raw.map(String) : []}
          onChange={(v) => setValue(v.map((x) => (x === 'EMPTY' ? x : Number(x))))}
          searchable
        />
      );
      break;
    case 'user':
      input = (
        <Select
          {...named('value')}
          data={[
            { value: 'CURRENT_USER', label: t('fields.search.current_user') },
            ...users.map((u) => ({ value: String(u.id), label: u.name })),
          ]}
          value={raw === undefined || raw === null || raw === '' ? null : String(raw)}
          onChange={(v) => setValue(v === 'CURRENT_USER' || v === null ? (v ?? '') : Number(v))}
          onSearchChange={setSearch}
          searchable
          clearable
        />
      );
      break;
    default:
      input = null;
  }

  return (
    <div>
      <Group gap={4} align="flex-start" wrap="nowrap">
        <Select
          label={props.label}
          aria-label={typeof props.label === 'string' ? undefined : t('fields.search.operator')}
          placeholder={t('fields.search.operator')}
          data={operators.map((op) => ({ value: op, label: label(op) }))}
          value={operator}
          onChange={(op) =>
            props.onChange(
              op
                ? {
                    operator: op as OperatorName,
                    value: operatorValueKind(type, op as OperatorName) === 'none' ? null : '',
                  }
                : null,
            )
          }
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        {input ? <div style={{ marginTop: props.label ? 25 : 0, flex: 1 }}>{input}</div> : null}
      </Group>
    </div>
  );
}
