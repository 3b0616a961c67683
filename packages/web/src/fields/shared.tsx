import { InputWrapperContext, Text, TextInput, type TextInputProps } from '@mantine/core';
import { type ReactNode, use, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FORMAT_LOCALE, formatFieldValue, itemFieldType, toIntlLocale, validateFieldValue } from './helpers';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/**
 * The UI language for labels, option translations and "n days ago" (from i18next, which the locale
 * provider keeps in step with the chosen locale). Values themselves format in nl-NL: see FORMAT_LOCALE.
 */
export function useFieldLocale(): string {
  const { i18n } = useTranslation();
  return toIntlLocale(i18n.language || 'nl');
}

export function fieldTypeOf(item: FieldEditorProps['item']): string {
  return itemFieldType(item) ?? '';
}

/**
 * Keeps the typed text, runs the registry's normalise on every change and emits only valid values.
 * The normalise message shows after the input is left (or at once when it was shown before).
 */
export function useNormalisedDraft(
  props: FieldEditorProps,
  type: string,
  toText: (value: unknown) => string,
) {
  const { value, settings, ctx, onChange, onInvalid } = props;
  const [draft, setDraft] = useState(() => toText(value));
  const [message, setMessage] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const emitted = useRef<unknown>(value);

  useEffect(() => {
    // An outside change (reset, another user's update) replaces the draft.
    if (value !== emitted.current) {
      emitted.current = value;
      setDraft(toText(value));
      setMessage(null);
    }
  }, [value, toText]);

  const change = (text: string) => {
    setDraft(text);
    const result = validateFieldValue(type, text, settings, ctx);
    if (result.ok) {
      setMessage(null);
      onInvalid?.(null);
      emitted.current = result.value;
      onChange(result.value);
    } else {
      setMessage(result.message);
      onInvalid?.(result.message);
    }
  };
  return {
    draft,
    change,
    blur: () => setTouched(true),
    error: props.error ?? (touched ? message : null),
  };
}

/** A TextInput wired to the registry's normalise, with an input filter. */
export function NormalisedTextInput({
  props,
  type,
  filter = (text) => text,
  toText = defaultToText,
  inputProps,
}: {
  props: FieldEditorProps;
  type: string;
  filter?: (text: string) => string;
  toText?: (value: unknown) => string;
  inputProps?: Partial<TextInputProps>;
}) {
  const { draft, change, blur, error } = useNormalisedDraft(props, type, toText);
  return (
    <TextInput
      label={props.label}
      description={props.description}
      withAsterisk={props.required}
      disabled={props.disabled}
      value={draft}
      error={error}
      onChange={(e) => change(filter(e.currentTarget.value))}
      onBlur={blur}
      {...inputProps}
    />
  );
}

export function defaultToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The registry's format of the value as plain text. */
export function FormattedDisplay({
  value,
  settings,
  item,
  users,
  options,
  type,
}: FieldDisplayProps & { type?: string }) {
  const text = formatFieldValue(type ?? fieldTypeOf(item), value, settings, FORMAT_LOCALE, {
    users,
    options,
  });
  return <Text span>{text}</Text>;
}

/** A read-only value inside a form, with the item's label. */
export function ReadOnlyField({ label, children }: { label?: ReactNode; children: ReactNode }) {
  return (
    <div>
      {label ? (
        <Text size="sm" fw={500}>
          {label}
        </Text>
      ) : null}
      <div>{children}</div>
    </div>
  );
}

/**
 * The inputs of a field made of several (coordinates, a signature pad) as one group inside the
 * field's Input.Wrapper (labelElement="div"): named by the field's label, described by its
 * description and error, and invalid with the error, as Mantine's checkbox groups are.
 */
export function FieldGroup({ invalid, children }: { invalid: boolean; children: ReactNode }) {
  const wrapper = use(InputWrapperContext);
  return (
    <fieldset
      aria-labelledby={wrapper?.labelId}
      aria-describedby={wrapper?.describedBy}
      aria-invalid={invalid || undefined}
      style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
    >
      {children}
    </fieldset>
  );
}
