import { describe, expect, it } from 'vitest';
import { imageCodeField } from './image-code';

const parse = (imageType?: string) => imageCodeField.settingsSchema.parse({ imageType });

describe('imageCode field', () => {
  it('defaults to a QR code and knows three symbologies', () => {
    expect(parse()).toEqual({ imageType: 'qrcode' });
    expect(imageCodeField.settingsSchema.safeParse({ imageType: 'ean13' }).success).toBe(false);
  });

  it('checks what each symbology can hold', () => {
    expect(imageCodeField.normalise('https://x.nl/ä', parse('qrcode')).ok).toBe(true);
    expect(imageCodeField.normalise('abc-12', parse('code39'))).toEqual({ ok: true, value: 'ABC-12' });
    expect(imageCodeField.normalise('a_b', parse('code39'))).toEqual({
      ok: false,
      message: 'Code 39 allows only A-Z, 0-9, space and - . $ / + %',
    });
    expect(imageCodeField.normalise('é', parse('code128'))).toEqual({
      ok: false,
      message: 'Code 128 allows only printable ASCII characters',
    });
    expect(imageCodeField.normalise('x'.repeat(81), parse('code128'))).toEqual({
      ok: false,
      message: 'Enter at most 80 characters',
    });
  });

  it('formats as the text and is not a query operand', () => {
    expect(imageCodeField.format('ABC', parse())).toBe('ABC');
    expect(imageCodeField.operators).toEqual([]);
  });
});
