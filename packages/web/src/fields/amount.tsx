import { parseFieldSettings } from '@dossierbase/core';
import { Text } from '@mantine/core';
import { amountAffix, amountToInput, FORMAT_LOCALE, filterAmountInput, formatFieldValue } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** Digits, dot, comma and space only; the currency symbol or % sits beside the input. */
export function AmountEditor(props: FieldEditorProps) {
  const settings = parseFieldSettings('amount', props.settings);
  const affix = amountAffix(settings, FORMAT_LOCALE);
  return (
    <NormalisedTextInput
      props={props}
      type="amount"
      filter={filterAmountInput}
      toText={(value) => amountToInput(value, settings.decimals)}
      inputProps={{
        inputMode: 'decimal',
        leftSection: affix.prefix || undefined,
        rightSection: affix.suffix || undefined,
      }}
    />
  );
}

/** nl-NL style formatting by the registry (currency, percentage, decimals). */
export function AmountDisplay({ value, settings }: FieldDisplayProps) {
  const text = formatFieldValue('amount', value, settings, FORMAT_LOCALE);
  return text ? <Text span>{text}</Text> : null;
}
