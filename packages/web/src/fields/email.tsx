import { Anchor } from '@mantine/core';
import { mailtoHref } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

export function EmailEditor(props: FieldEditorProps) {
  return (
    <NormalisedTextInput props={props} type="email" inputProps={{ type: 'email', inputMode: 'email' }} />
  );
}

/** A valid address is a mailto: link; anything else in the field shows as plain text. */
export function EmailDisplay({ value }: FieldDisplayProps) {
  if (typeof value !== 'string' || value === '') return null;
  const href = mailtoHref(value);
  if (!href) return <span>{value}</span>;
  return <Anchor href={href}>{value}</Anchor>;
}
