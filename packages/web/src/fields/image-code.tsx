import type { ImageCodeSettings } from '@dossierbase/core';
import { Code, Group, Text } from '@mantine/core';
import { parseSettings } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

export function ImageCodeEditor(props: FieldEditorProps) {
  return <NormalisedTextInput props={props} type="imageCode" />;
}

/** Minimal: the code's text and symbology; no barcode image is drawn (no barcode library installed). */
export function ImageCodeDisplay({ value, settings }: FieldDisplayProps) {
  const s = parseSettings<ImageCodeSettings>('imageCode', settings);
  if (typeof value !== 'string' || value === '') return null;
  return (
    <Group gap="xs">
      <Code>{value}</Code>
      <Text span size="xs" c="dimmed">
        {s.imageType}
      </Text>
    </Group>
  );
}
