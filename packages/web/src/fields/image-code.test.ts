// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { barcodeOptions, drawImageCode } from './image-code-render';

// jsdom has no canvas; jsbarcode only measures the text under the bars with one.
beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() => ({
    font: '',
    measureText: (text: string) => ({ width: text.length * 8 }),
  })) as unknown as HTMLCanvasElement['getContext'];
});

describe('image code drawing', () => {
  it('maps the symbologies to jsbarcode formats (QR codes are drawn by qrcode)', () => {
    expect(barcodeOptions('code128')).toMatchObject({ format: 'CODE128', displayValue: true });
    expect(barcodeOptions('code39')).toMatchObject({ format: 'CODE39', displayValue: true });
    expect(barcodeOptions('qrcode')).toBeNull();
  });

  it('draws a Code 128 barcode with its text into the svg', async () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    await drawImageCode('code128', 'DOS-42', { canvas: null, svg });
    expect(svg.querySelectorAll('rect').length).toBeGreaterThan(10);
    expect(svg.textContent).toContain('DOS-42');
  });

  it('draws Code 39 and refuses what the symbology cannot hold', async () => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    await drawImageCode('code39', 'ABC-123', { canvas: null, svg });
    expect(svg.textContent).toContain('ABC-123');
    const bad = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    await expect(drawImageCode('code39', 'lower~case', { canvas: null, svg: bad })).rejects.toBeTruthy();
  });
});
