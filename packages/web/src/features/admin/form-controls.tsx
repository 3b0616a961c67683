import {
  Checkbox,
  type CheckboxGroupProps,
  type CheckboxProps,
  ColorInput,
  type ColorInputProps,
  Group,
  MultiSelect,
  type MultiSelectProps,
  NumberInput,
  type NumberInputProps,
  Radio,
  type RadioGroupProps,
  Select,
  type SelectProps,
  Stack,
  Switch,
  type SwitchProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
  Tooltip,
} from '@mantine/core';
import type { ReactNode } from 'react';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages';

// Mantine inputs bound to a react-hook-form field: the value, onChange and the field's translated
// error come from the form, every other prop is Mantine's. Every admin form uses these.

// O: the values after the schema's transforms and defaults (what the submit handler gets).
interface Bound<T extends FieldValues, O extends FieldValues> {
  control: Control<T, unknown, O>;
  name: Path<T>;
}

/** The field, and the props every bound input shares: ref, name, onBlur and the translated error. */
function useBound<T extends FieldValues, O extends FieldValues>(
  { control, name }: Bound<T, O>,
  ownError?: ReactNode,
) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  const error = ownError ?? (message ? translateMessage(t, message) : undefined);
  return { field, error, shared: { ref: field.ref, name: field.name, onBlur: field.onBlur, error } };
}

export function FormTextInput<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<TextInputProps, 'value' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <TextInput
      {...props}
      {...shared}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(event.currentTarget.value)}
    />
  );
}

export function FormTextarea<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<TextareaProps, 'value' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <Textarea
      {...props}
      {...shared}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(event.currentTarget.value)}
    />
  );
}

/** Holds a number, or '' while the box is empty (the schema then says what is missing). */
export function FormNumberInput<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<NumberInputProps, 'value' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <NumberInput
      {...props}
      {...shared}
      value={field.value ?? ''}
      onChange={(next) => field.onChange(typeof next === 'number' ? next : next === '' ? '' : Number(next))}
    />
  );
}

/**
 * `numeric`: the field holds an id (a number or null) while the options' values are its text.
 * `onValueChange` runs after the form has the new value.
 */
export function FormSelect<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  numeric,
  onValueChange,
  ...props
}: Bound<T, O> &
  Omit<SelectProps, 'value' | 'onChange'> & {
    numeric?: boolean;
    onValueChange?: (next: string | null) => void;
  }) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <Select
      {...props}
      {...shared}
      value={field.value === null || field.value === undefined ? null : String(field.value)}
      onChange={(next) => {
        field.onChange(numeric && next !== null ? Number(next) : next);
        onValueChange?.(next);
      }}
    />
  );
}

/** `numeric`: the field holds ids (numbers) while the options' values are their text. */
export function FormMultiSelect<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  numeric,
  ...props
}: Bound<T, O> & Omit<MultiSelectProps, 'value' | 'onChange'> & { numeric?: boolean }) {
  const { field, shared } = useBound({ control, name }, props.error);
  const value: unknown[] = field.value ?? [];
  return (
    <MultiSelect
      {...props}
      {...shared}
      value={value.map(String)}
      onChange={(next) => field.onChange(numeric ? next.map(Number) : next)}
    />
  );
}

export function FormSwitch<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<SwitchProps, 'checked' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <Switch
      {...props}
      {...shared}
      checked={field.value === true}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
    />
  );
}

export function FormCheckbox<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<CheckboxProps, 'checked' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return (
    <Checkbox
      {...props}
      {...shared}
      checked={field.value === true}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
    />
  );
}

export function FormColorInput<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  ...props
}: Bound<T, O> & Omit<ColorInputProps, 'value' | 'onChange'>) {
  const { field, shared } = useBound({ control, name }, props.error);
  return <ColorInput {...props} {...shared} value={field.value ?? ''} onChange={field.onChange} />;
}

/** One of a few options, each a radio button with its label (an option's value may be ''). */
export function FormRadioGroup<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  options,
  ...props
}: Bound<T, O> &
  Omit<RadioGroupProps, 'value' | 'onChange' | 'children'> & {
    options: readonly { value: string; label: string }[];
  }) {
  const { field, error } = useBound({ control, name }, props.error);
  return (
    <Radio.Group
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      error={error}
    >
      <Group mt="xs">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}

/** A checkbox per item for a field holding ids (roles hiding a list option, fields to change). */
export function FormIdChecks<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  items,
}: Bound<T, O> & { items: readonly { id: number; label: string; tooltip?: string; testId?: string }[] }) {
  const { field } = useBound({ control, name });
  const chosen: number[] = field.value ?? [];
  return items.map((item) => (
    <Tooltip key={item.id} label={item.tooltip} disabled={!item.tooltip} position="top-start">
      <Checkbox
        label={item.label}
        checked={chosen.includes(item.id)}
        onChange={(event) =>
          field.onChange(
            event.currentTarget.checked ? [...chosen, item.id] : chosen.filter((id) => id !== item.id),
          )
        }
        data-testid={item.testId}
      />
    </Tooltip>
  ));
}

/**
 * A checkbox per option for a field holding a list (a member's credentials), as one group with its
 * legend. `numeric`: the field holds ids (numbers) while the options' values are their text.
 */
export function FormCheckboxGroup<T extends FieldValues, O extends FieldValues = T>({
  control,
  name,
  options,
  numeric,
  ...props
}: Bound<T, O> &
  Omit<CheckboxGroupProps, 'value' | 'onChange' | 'children'> & {
    options: readonly { value: string; label: string; description?: string; testId?: string }[];
    numeric?: boolean;
  }) {
  const { field, error } = useBound({ control, name }, props.error);
  const value: unknown[] = field.value ?? [];
  return (
    <Checkbox.Group
      {...props}
      value={value.map(String)}
      onChange={(next) => field.onChange(numeric ? next.map(Number) : next)}
      error={error}
    >
      <Stack gap="xs" mt="xs">
        {options.map((option) => (
          <Checkbox
            key={option.value}
            value={option.value}
            label={option.label}
            description={option.description}
            data-testid={option.testId}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
