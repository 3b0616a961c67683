// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  acceptOf,
  dataUrlToFile,
  fileDownloadUrl,
  isPreviewableImage,
  readAsDataUrl,
  SIGNATURE_FILE_NAME,
} from './file-api';
import { SIGNATURE_PAD_OPTIONS } from './signature';

// The smallest PNG (1x1, transparent).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('file helpers', () => {
  it('turns the signature PNG data URL into signature.png and back', async () => {
    const file = dataUrlToFile(PNG, SIGNATURE_FILE_NAME);
    expect(file.name).toBe('signature.png');
    expect(file.type).toBe('image/png');
    expect(file.size).toBe(68);
    expect(await readAsDataUrl(file)).toBe(PNG);
  });

  it('reads plain data URLs too and refuses anything else', () => {
    expect(dataUrlToFile('data:text/plain,a%20b', 'a.txt').size).toBe(3);
    expect(() => dataUrlToFile('https://x/y.png', 'y.png')).toThrow();
  });

  it('downloads through the API and previews only inline image types', () => {
    expect(fileDownloadUrl(7)).toBe('/api/file/7/download');
    expect(isPreviewableImage('image/png')).toBe(true);
    expect(isPreviewableImage('image/svg+xml')).toBe(false);
    expect(isPreviewableImage('application/pdf')).toBe(false);
  });

  it('filters the picker by the allowed groups', () => {
    expect(acceptOf({ file_types: [] })).toBeUndefined();
    expect(acceptOf({ file_types: ['images', 'spreadsheet'] })).toBe('image/*,.xls,.xlsx,.ods,.csv,text/csv');
  });

  it('uses the spec pen for signatures', () => {
    expect(SIGNATURE_PAD_OPTIONS).toEqual({
      minWidth: 0.5,
      maxWidth: 2.5,
      minDistance: 5,
      dotSize: 1.5,
      penColor: 'black',
      throttle: 28,
    });
  });
});
