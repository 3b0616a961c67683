import { parseFieldSettings, TEXT_MAX_LENGTH } from '@dossierbase/core';
import { Text } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyWarning } from '../api/errors';
import { applyTextMask, textMaskOf } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** Text: preset regexes and phone_number give an input filter; max 255 characters with a warning. */
export function TextEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const settings = parseFieldSettings('text', props.settings);
  const mask = textMaskOf(settings);
  const lastLength = useRef(typeof props.value === 'string' ? props.value.length : 0);
  // Spec: reaching 255 characters warns with a toast.
  const filter = (text: string) => {
    const next = applyTextMask(mask, text);
    if (next.length >= TEXT_MAX_LENGTH && lastLength.current < TEXT_MAX_LENGTH)
      notifyWarning(t('fields.text.max_length_reached'));
    lastLength.current = next.length;
    return next;
  };
  return (
    <NormalisedTextInput
      props={props}
      type="text"
      filter={filter}
      inputProps={{
        maxLength: TEXT_MAX_LENGTH,
        type: mask === 'phone' ? 'tel' : 'text',
        inputMode:
          mask === 'digits' || mask === 'municipal' ? 'numeric' : mask === 'phone' ? 'tel' : undefined,
      }}
    />
  );
}

export function TextDisplay({ value, settings }: FieldDisplayProps) {
  const s = parseFieldSettings('text', settings);
  if (typeof value !== 'string' || value === '') return null;
  if (s.phone_number) return <a href={`tel:${value.replace(/[^\d+]/g, '')}`}>{value}</a>;
  return <Text span>{value}</Text>;
}
