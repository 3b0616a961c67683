import { parseFieldSettings } from '@dossierbase/core';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  agoText,
  applyDateMask,
  dateToInput,
  deadlineColor,
  FORMAT_LOCALE,
  formatFieldValue,
} from './helpers';
import { NormalisedTextInput, useFieldLocale } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/**
 * DD-MM-YYYY (plus HH:mm with withtime) typed with a mask. restriction and restrict_days are the
 * registry's normalise rules: their messages show under the input.
 */
export function DateEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseFieldSettings('date', props.settings);
  const hint =
    settings.restriction === 'before_and_eq_current_date'
      ? t('fields.date.until_today')
      : settings.restriction === 'after_and_eq_current_date'
        ? t('fields.date.from_today')
        : undefined;
  return (
    <NormalisedTextInput
      props={{ ...props, description: props.description ?? hint }}
      type="date"
      filter={(text) => applyDateMask(text, settings.withtime)}
      toText={(value) => dateToInput(value, settings)}
      inputProps={{
        inputMode: 'numeric',
        placeholder: settings.withtime ? 'DD-MM-YYYY HH:mm' : 'DD-MM-YYYY',
      }}
    />
  );
}

/** nl-NL date (Amsterdam time), "n days ago" with show_ago, and the deadline colour as a badge. */
export function DateDisplay({ value, settings }: FieldDisplayProps) {
  const locale = useFieldLocale();
  const s = parseFieldSettings('date', settings);
  const text = formatFieldValue('date', value, s, FORMAT_LOCALE);
  if (!text) return null;
  const color = deadlineColor(value, s.deadline);
  return (
    <Group gap="xs" wrap="nowrap">
      {color ? (
        <Badge color={color} variant="filled" radius="sm" tt="none">
          {text}
        </Badge>
      ) : (
        <Text span>{text}</Text>
      )}
      {s.show_ago ? (
        <Text span size="xs" c="dimmed">
          {agoText(value, locale)}
        </Text>
      ) : null}
    </Group>
  );
}
