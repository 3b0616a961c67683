import { type ImageCodeSettings, parseFieldSettings } from '@dossierbase/core';
import { Code, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { drawImageCode } from './image-code-render';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

/** The value drawn as a QR code (canvas) or a Code 128 / Code 39 barcode (svg), per the settings. */
export function ImageCodeImage({
  value,
  imageType,
}: {
  value: string;
  imageType: ImageCodeSettings['imageType'];
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    setFailed(false);
    drawImageCode(imageType, value, { canvas: canvas.current, svg: svg.current }).catch(() => {
      if (active) setFailed(true);
    });
    return () => {
      active = false;
    };
  }, [imageType, value]);
  if (failed)
    return (
      <Text size="sm" c="red">
        {t('fields.image_code.cannot_draw')}
      </Text>
    );
  return imageType === 'qrcode' ? (
    <canvas ref={canvas} data-testid="image-code-qr" role="img" aria-label={value} />
  ) : (
    <svg ref={svg} data-testid="image-code-barcode" role="img" aria-label={value} />
  );
}

/** Text input with the drawn code below it while the value is valid for the symbology. */
export function ImageCodeEditor(props: FieldEditorProps) {
  const s = parseFieldSettings('imageCode', props.settings);
  const value = typeof props.value === 'string' && props.value !== '' ? props.value : null;
  return (
    <Stack gap="xs" align="flex-start">
      <NormalisedTextInput props={props} type="imageCode" inputProps={{ w: '100%' }} />
      {value ? <ImageCodeImage value={value} imageType={s.imageType} /> : null}
    </Stack>
  );
}

/** The drawn code with its text; in lists only the text. */
export function ImageCodeDisplay({ value, settings, listMode }: FieldDisplayProps) {
  const s = parseFieldSettings('imageCode', settings);
  if (typeof value !== 'string' || value === '') return null;
  if (listMode) return <Code>{value}</Code>;
  return (
    <Stack gap={4} align="flex-start">
      <ImageCodeImage value={value} imageType={s.imageType} />
      {s.imageType === 'qrcode' ? <Code>{value}</Code> : null}
    </Stack>
  );
}
