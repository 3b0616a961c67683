import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { flag, idValueSchema, inValues, noDefault, normaliseIds } from './shared';
import type { FieldType } from './types';

export const FILE_TYPES = ['images', 'audio', 'video', 'documents', 'spreadsheet', 'presentation'] as const;
export type FileTypeGroup = (typeof FILE_TYPES)[number];

const FILE_TYPE_MIMES: Record<FileTypeGroup, RegExp> = {
  images: /^image\//,
  audio: /^audio\//,
  video: /^video\//,
  documents:
    /^(application\/(pdf|msword|rtf|vnd\.openxmlformats-officedocument\.wordprocessingml\.document|vnd\.oasis\.opendocument\.text)|text\/plain)$/,
  spreadsheet:
    /^(application\/(vnd\.ms-excel|vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet|vnd\.oasis\.opendocument\.spreadsheet)|text\/csv)$/,
  presentation:
    /^application\/(vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.presentationml\.presentation|vnd\.oasis\.opendocument\.presentation)$/,
};

export const FILE_MESSAGES = {
  invalid: 'Invalid file reference',
  tooMany: 'Only one file is allowed',
  type: 'This type of file is not allowed',
} as const;

export const fileSettingsSchema = z.object({
  file_types: z.array(z.enum(FILE_TYPES)).default([]), // empty: every type
  multiple: flag(),
  file_preview: flag(),
  preview_direct: flag(),
  preview_width: z.number().int().min(1).max(4000).default(200),
  preview_height: z.number().int().min(1).max(4000).default(200),
  signature: flag(), // the signature pad's PNG is uploaded as a file
});
export type FileSettings = z.output<typeof fileSettingsSchema>;

/** Whether an upload's MIME type fits the field (the upload route checks before attaching). */
export function isFileTypeAllowed(mime: string, settings: FileSettings): boolean {
  if (settings.signature && mime === 'image/png') return true;
  if (settings.file_types.length === 0) return true;
  return settings.file_types.some((group) => FILE_TYPE_MIMES[group].test(mime.toLowerCase()));
}

/** Stored value: file id(s). */
export const fileField: FieldType<typeof fileSettingsSchema, number | number[]> = {
  type: 'file',
  settingsSchema: fileSettingsSchema,
  serverComputed: false,
  refersTo: 'files',
  source: inValues,
  defaultValue: noDefault,
  valueSchema: (settings) => idValueSchema(settings.multiple),
  normalise: (raw, settings) =>
    normaliseIds(raw, settings.multiple, {
      invalid: FILE_MESSAGES.invalid,
      tooMany: FILE_MESSAGES.tooMany,
      unknown: () => FILE_MESSAGES.invalid,
    }),
  operators: OPERATORS_BY_FIELD_TYPE.file,
  aggregations: ['count'],
  sortable: () => false,
  format(value) {
    const count = value === null || value === undefined ? 0 : Array.isArray(value) ? value.length : 1;
    return count === 0 ? '' : count === 1 ? '1 file' : `${count} files`;
  },
  sqlCast: () => 'jsonb',
};
