import { Anchor } from '@mantine/core';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

export function EmailEditor(props: FieldEditorProps) {
  return (
    <NormalisedTextInput props={props} type="email" inputProps={{ type: 'email', inputMode: 'email' }} />
  );
}

export function EmailDisplay({ value }: FieldDisplayProps) {
  if (typeof value !== 'string' || value === '') return null;
  return <Anchor href={`mailto:${value}`}>{value}</Anchor>;
}
