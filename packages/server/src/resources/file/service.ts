import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  FILE_MESSAGES,
  type FileBody,
  type FileUpload,
  isFileTypeAllowed,
  parseFieldSettings,
} from '@dossierbase/core';
import { fileTypeFromFile } from 'file-type';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { openableEnvironmentIds } from '../../db/user-environments';
import { notFound } from '../../http-errors';
import { openEnvironment } from '../../policy/environment';
import type { ReceivedFile } from './upload-body';

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
async function contentType(file: ReceivedFile): Promise<string> {
  const detected = await fileTypeFromFile(file.path);
  if (detected) return detected.mime;
  if (/^text\/(plain|csv)$/.test(file.claimed)) return file.claimed;
  return 'application/octet-stream';
}

/** A file's bytes are stored in rows of this size, written and read one at a time. */
export const FILE_CHUNK_BYTES = 256 * 1024;

// Chunks travel as base64 text that the database decodes and encodes: PGlite converts bytea parameters
// and values in JavaScript, byte by byte (a 256 KiB chunk took 470 ms in and 290 ms out on a busy
// two-core machine; as base64 text 100 ms and 23 ms). On PostgreSQL both sides are native, and base64
// is shorter than the hex text bytea values are read as.
const fromBase64 = (bytes: Buffer) => sql<Buffer>`decode(${bytes.toString('base64')}, 'base64')`;
const toBase64 = (column: 'bytes') => sql<string>`encode(${sql.ref(column)}, 'base64')`;

/**
 * Stores an upload that has arrived in full on disk. The chunks go in in one short transaction, after
 * the body was read, so that a slow client never holds a database connection.
 */
export async function uploadFile(
  db: Db,
  user: UserRow,
  input: Omit<FileUpload, 'file'> & { description: string },
  file: ReceivedFile,
) {
  const { environment } = await openEnvironment(db, user, input.environment);
  const mime = await contentType(file);
  const handle = await open(file.path, 'r');
  try {
    const row = await db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('file')
        .values({
          environment_id: environment.id,
          name: input.name,
          description: input.description,
          mime,
          size: file.size,
          created_by: user.id,
        })
        .returning(['id', 'name', 'description', 'mime', 'size'])
        .executeTakeFirstOrThrow();
      for (let seq = 0; seq * FILE_CHUNK_BYTES < file.size; seq++) {
        const bytes = Buffer.alloc(Math.min(FILE_CHUNK_BYTES, file.size - seq * FILE_CHUNK_BYTES));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, seq * FILE_CHUNK_BYTES);
        if (bytesRead !== bytes.length)
          throw new Error(`upload ${file.path} is shorter than ${file.size} bytes`);
        await tx
          .insertInto('file_chunk')
          .values({ environment_id: environment.id, file_id: row.id, seq, bytes: fromBase64(bytes) })
          .execute();
      }
      return row;
    });
    return presentFile(row);
  } finally {
    await handle.close();
  }
}

/** A file of an environment the user may open (404 otherwise: ids are not confirmed to outsiders). */
export async function openFile(db: Db, user: UserRow, id: number) {
  const file = await db
    .selectFrom('file')
    .select(['id', 'environment_id', 'name', 'description', 'mime', 'size'])
    .where('id', '=', id)
    .where('environment_id', 'in', openableEnvironmentIds(db, user))
    .executeTakeFirst();
  if (!file) throw notFound();
  try {
    await openEnvironment(db, user, file.environment_id);
  } catch {
    throw notFound();
  }
  return file;
}

/** A file's bytes as a stream that reads one chunk row at a time, as the client takes them. */
export function fileContent(db: Db, file: { id: number; environment_id: number }): Readable {
  async function* chunks() {
    for (let seq = 0; ; seq++) {
      const chunk = await db
        .selectFrom('file_chunk')
        .select(toBase64('bytes').as('base64'))
        .where('environment_id', '=', file.environment_id)
        .where('file_id', '=', file.id)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!chunk) return;
      yield Buffer.from(chunk.base64, 'base64');
    }
  }
  // Byte mode: the 16 KiB buffer is below one chunk, so the next is read only once the last has gone out.
  return Readable.from(chunks(), { objectMode: false });
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
  const fileSettings = parseFieldSettings('file', settings);
  return rows.every((row) => isFileTypeAllowed(row.mime, fileSettings)) ? null : FILE_MESSAGES.type;
}
