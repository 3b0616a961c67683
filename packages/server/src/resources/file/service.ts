import {
  FILE_MESSAGES,
  type FileBody,
  type FileUpload,
  fileField,
  isFileTypeAllowed,
  MAX_FILE_BYTES,
  UPLOAD_MESSAGES,
} from '@dossierbase/core';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';

type FileRow = { id: number; name: string; description: string; mime: string; size: number };

export const presentFile = (row: FileRow): FileBody => ({
  id: row.id,
  filename: row.name,
  description: row.description,
  mime: row.mime,
  size: row.size,
});

/** Types a browser may show inline; anything else (SVG and HTML included) is only downloaded. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);
export const isInlineType = (mime: string) => INLINE_TYPES.has(mime);

/**
 * The stored type comes from the bytes where they are recognisable; the claimed type of a data URL is
 * kept only for text formats without a signature, and everything else is application/octet-stream.
 */
async function contentType(bytes: Buffer, claimed: string): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return detected.mime;
  if (/^text\/(plain|csv)$/.test(claimed)) return claimed;
  return 'application/octet-stream';
}

function decodeDataUrl(dataUrl: string): { bytes: Buffer; claimed: string } {
  const match = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[\w.-]+)*;base64,([A-Za-z0-9+/=\s]*)$/.exec(dataUrl);
  if (!match) throw badRequest({ file: UPLOAD_MESSAGES.dataUrl });
  // Reject before decoding: base64 is 4 characters per 3 bytes.
  if (match[2].length > Math.ceil(MAX_FILE_BYTES / 3) * 4 + 4)
    throw badRequest({ file: UPLOAD_MESSAGES.tooLarge });
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length === 0) throw badRequest({ file: UPLOAD_MESSAGES.dataUrl });
  if (bytes.length > MAX_FILE_BYTES) throw badRequest({ file: UPLOAD_MESSAGES.tooLarge });
  return { bytes, claimed: (match[1] ?? '').toLowerCase() };
}

export async function uploadFile(db: Db, user: UserRow, input: FileUpload & { description: string }) {
  const { environment } = await openEnvironment(db, user, input.environment);
  const { bytes, claimed } = decodeDataUrl(input.file);
  const row = await db
    .insertInto('file')
    .values({
      environment_id: environment.id,
      name: input.name,
      description: input.description,
      mime: await contentType(bytes, claimed),
      size: bytes.length,
      content: bytes,
      created_by: user.id,
    })
    .returning(['id', 'name', 'description', 'mime', 'size'])
    .executeTakeFirstOrThrow();
  return presentFile(row);
}

/** A file of an environment the user belongs to (404 otherwise: ids are not confirmed to outsiders). */
export async function openFile(db: Db, user: UserRow, id: number, withContent: boolean) {
  const meta = await db.selectFrom('file').select('environment_id').where('id', '=', id).executeTakeFirst();
  if (!meta) throw notFound();
  try {
    await openEnvironment(db, user, meta.environment_id);
  } catch {
    throw notFound();
  }
  const columns = ['id', 'name', 'description', 'mime', 'size'] as const;
  const row = await db
    .selectFrom('file')
    .select(withContent ? [...columns, 'content'] : [...columns])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row as FileRow & { content?: Buffer };
}

/** Why the file ids of a file field's value may not be stored, or null when they may. */
export async function fileValueProblem(
  db: Db,
  environmentId: number,
  value: unknown,
  settings: unknown,
): Promise<string | null> {
  const ids = (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number');
  if (ids.length === 0) return null;
  const rows = await db
    .selectFrom('file')
    .select(['id', 'mime'])
    .where('environment_id', '=', environmentId)
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size) return FILE_MESSAGES.invalid;
  const fileSettings = fileField.settingsSchema.parse(settings ?? {});
  return rows.every((row) => isFileTypeAllowed(row.mime, fileSettings)) ? null : FILE_MESSAGES.type;
}
