import { Anchor } from '@mantine/core';
import { safeHref } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

export function UrlEditor(props: FieldEditorProps) {
  return <NormalisedTextInput props={props} type="url" inputProps={{ type: 'url', inputMode: 'url' }} />;
}

/** Opens in a new tab; only http(s) becomes a link. */
export function UrlDisplay({ value }: FieldDisplayProps) {
  const href = safeHref(value);
  if (!href) return typeof value === 'string' ? <span>{value}</span> : null;
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer">
      {href}
    </Anchor>
  );
}
