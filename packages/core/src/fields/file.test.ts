import { describe, expect, it } from 'vitest';
import { fileField, isFileTypeAllowed } from './file';

const single = fileField.settingsSchema.parse({});
const multi = fileField.settingsSchema.parse({ multiple: true, file_types: ['images', 'documents'] });

describe('file field', () => {
  it('has the spec defaults (preview 200 px)', () => {
    expect(single).toEqual({
      file_types: [],
      multiple: false,
      file_preview: false,
      preview_direct: false,
      preview_width: 200,
      preview_height: 200,
      signature: false,
    });
  });

  it('stores file ids', () => {
    expect(fileField.normalise(5, single)).toEqual({ ok: true, value: 5 });
    expect(fileField.normalise({ id: 5, filename: 'a.pdf' }, single)).toEqual({ ok: true, value: 5 });
    expect(fileField.normalise([5, '6', 5], multi)).toEqual({ ok: true, value: [5, 6] });
    expect(fileField.normalise([5, 6], single)).toEqual({ ok: false, message: 'Only one file is allowed' });
    expect(fileField.normalise('a.pdf', single)).toEqual({ ok: false, message: 'Invalid file reference' });
  });

  it('checks MIME types against the allowed groups', () => {
    expect(isFileTypeAllowed('image/png', multi)).toBe(true);
    expect(isFileTypeAllowed('application/pdf', multi)).toBe(true);
    expect(isFileTypeAllowed('video/mp4', multi)).toBe(false);
    expect(isFileTypeAllowed('video/mp4', single)).toBe(true);
  });

  it('formats a count and is neither sortable nor searchable', () => {
    expect(fileField.format([1, 2], multi)).toBe('2 files');
    expect(fileField.format(1, single)).toBe('1 file');
    expect(fileField.sortable(single)).toBe(false);
    expect(fileField.operators).toEqual([]);
    expect(fileField.sqlCast(single)).toBe('jsonb');
  });
});
