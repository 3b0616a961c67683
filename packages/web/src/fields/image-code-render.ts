import type { ImageCodeSettings } from '@dossierbase/core';
import type JsBarcode from 'jsbarcode';
import type { QRCodeRenderersOptions } from 'qrcode';

// How an imageCode value is drawn: QR codes with `qrcode`, Code 128 / Code 39 with `jsbarcode`.

type BarcodeOptions = NonNullable<Parameters<typeof JsBarcode>[2]>;

export const QR_OPTIONS: QRCodeRenderersOptions = { errorCorrectionLevel: 'M', margin: 1, width: 160 };

/** jsbarcode options for a symbology (null for QR codes, which qrcode draws). */
export function barcodeOptions(imageType: ImageCodeSettings['imageType']): BarcodeOptions | null {
  switch (imageType) {
    case 'code128':
      return { format: 'CODE128', displayValue: true, height: 60, width: 2, margin: 8, fontSize: 14 };
    case 'code39':
      return { format: 'CODE39', displayValue: true, height: 60, width: 2, margin: 8, fontSize: 14 };
    default:
      return null;
  }
}

/** Draws the code: a QR code on the canvas, a barcode into the svg. */
export async function drawImageCode(
  imageType: ImageCodeSettings['imageType'],
  value: string,
  target: { canvas: HTMLCanvasElement | null; svg: SVGSVGElement | null },
): Promise<void> {
  const options = barcodeOptions(imageType);
  if (options === null) {
    if (!target.canvas) return;
    const QRCode = await import('qrcode');
    await QRCode.toCanvas(target.canvas, value, QR_OPTIONS);
    return;
  }
  if (!target.svg) return;
  const { default: render } = await import('jsbarcode');
  render(target.svg, value, options);
}
