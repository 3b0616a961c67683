import { z } from 'zod';
import { idSchema } from './ids';

// Uploaded files (spec document 1 "File upload"; document 3 "File": id, filename, description, mime).

/** Decoded size limit of one upload (the JSON body carries it base64-encoded). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  dataUrl: 'Choose a file',
  tooLarge: 'The file may be at most 5 MB',
  /** 429: too many uploads in progress (the user's own, or the server's) */
  busy: 'Too many uploads at once; try again when one has finished',
} as const;

export const fileUploadSchema = z.object({
  name: z.string().trim().min(1, 'This is a required field').max(255),
  description: z.string().max(2000).default(''),
  /** the content as a data URL (data:{mime};base64,...) */
  file: z.string().min(1, 'This is a required field'),
  environment: idSchema,
});
export type FileUpload = z.input<typeof fileUploadSchema>;

export const fileBodySchema = z.object({
  id: z.number(),
  filename: z.string(),
  description: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type FileBody = z.infer<typeof fileBodySchema>;
