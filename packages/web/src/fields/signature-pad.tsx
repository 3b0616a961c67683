import { Box, Button, Group } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import { SIGNATURE_PAD_OPTIONS } from './signature';

/**
 * A signature pad (the signature_pad library with the spec's pen settings). Save hands over the drawing
 * as a PNG data URL. Loaded lazily by the file field's signature mode.
 */
export default function SignatureCanvas({
  onSave,
  disabled,
  busy,
  height = 180,
}: {
  onSave: (dataUrl: string) => void;
  disabled?: boolean;
  busy?: boolean;
  height?: number;
}) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, SIGNATURE_PAD_OPTIONS);
    padRef.current = pad;
    const onEnd = () => setEmpty(pad.isEmpty());
    pad.addEventListener('endStroke', onEnd);
    // Draw at the screen's pixel density; after a layout change the strokes are drawn again.
    const resize = () => {
      const strokes = pad.toData();
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      pad.fromData(strokes);
      setEmpty(pad.isEmpty());
    };
    resize();
    const observer = new ResizeObserver(() => {
      if (canvas.width !== canvas.offsetWidth * Math.max(window.devicePixelRatio || 1, 1)) resize();
    });
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useEffect(() => {
    if (disabled) padRef.current?.off();
    else padRef.current?.on();
  }, [disabled]);

  return (
    <div>
      <Box
        style={{
          border: '1px dashed var(--mantine-color-default-border)',
          borderRadius: 4,
          background: 'white',
        }}
      >
        <canvas
          ref={canvasRef}
          data-testid="signature-canvas"
          aria-label={t('fields.file.signature_area')}
          style={{ width: '100%', height, display: 'block', touchAction: 'none' }}
        />
      </Box>
      <Group gap="xs" mt={4}>
        <Button
          size="xs"
          variant="default"
          data-testid="signature-clear"
          disabled={disabled || empty}
          onClick={() => {
            padRef.current?.clear();
            setEmpty(true);
          }}
        >
          {t('fields.file.signature_clear')}
        </Button>
        <Button
          size="xs"
          data-testid="signature-save"
          disabled={disabled || empty}
          loading={busy}
          onClick={() => {
            const pad = padRef.current;
            if (pad && !pad.isEmpty()) onSave(pad.toDataURL('image/png'));
          }}
        >
          {t('fields.file.signature_save')}
        </Button>
      </Group>
    </div>
  );
}
