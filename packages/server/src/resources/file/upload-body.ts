import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { MAX_FILE_BYTES, UPLOAD_MESSAGES } from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import { getManyValues, none } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { badRequest, HttpError } from '../../http-errors';

// The upload body ({name, description, file: 'data:{mime};base64,...', environment}) is read as a
// stream of JSON tokens: the data URL's base64 is decoded piece by piece into a file on disk as it
// arrives, and only the small fields are kept in memory. A JSON parse of the whole body held it two
// or three times over (raw bytes, string, decoded bytes): 40 parallel uploads of 5 MB exhausted a
// 192 MB heap.

/** An upload's content, written to a temporary file while the body arrived. */
export interface ReceivedFile {
  path: string;
  size: number;
  /** the type the data URL claimed, lower case ('' when it named none) */
  claimed: string;
}

/** The largest body read: the base64 of the largest file, plus room for the other fields and line breaks. */
export const MAX_UPLOAD_BODY_BYTES = Math.ceil(MAX_FILE_BYTES / 3) * 4 + 1024 * 1024;

// The fields kept; longer values are cut one past the longest the schema allows (its max then refuses
// them with its own message) and other keys are skipped, so no field grows in memory with the body.
const SMALL_FIELDS = new Set(['name', 'description', 'environment']);
const MAX_KEPT_CHARS = 4096;
const MAX_KEY_CHARS = 64;
// A data URL's head (`data:image/png;base64,`) is short; one without a comma early on is not one.
const MAX_HEAD_CHARS = 256;
const DATA_URL_HEAD = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[\w.-]+)*;base64$/;
const NOT_BASE64 = /[^A-Za-z0-9+/=\s]/;

/** An upload during which nothing arrives for this long is ended (408). */
export const UPLOAD_IDLE_MS = 30_000;
export const UPLOAD_STALLED_MESSAGE = 'The upload stopped arriving';

const INVALID_BODY = 'The body must be a JSON object';
const notDataUrl = () => badRequest({ file: UPLOAD_MESSAGES.dataUrl });
const tooLarge = () => badRequest({ file: UPLOAD_MESSAGES.tooLarge });

const receivedFiles = new WeakMap<FastifyRequest, ReceivedFile>();

/** The file the request's body carried (read by the route's body parser), or undefined. */
export const receivedFile = (request: FastifyRequest) => receivedFiles.get(request);

/** Removes the request's temporary file, if any (when the response is done, whatever its outcome). */
export async function discardReceivedFile(request: FastifyRequest): Promise<void> {
  const file = receivedFiles.get(request);
  receivedFiles.delete(request);
  if (file) await rm(file.path, { force: true });
}

/**
 * Removes the temporary files of uploads that a process ended before it could (killed mid-upload).
 * Only those over an hour old: other processes may share the folder, and no upload runs that long
 * (Node ends a request after 5 minutes).
 */
export async function removeStaleUploads(dir: string): Promise<void> {
  const before = Date.now() - 60 * 60 * 1000;
  for (const name of await readdir(dir)) {
    if (!name.startsWith('upload-')) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < before) await rm(file, { force: true });
  }
}

/** Decodes a data URL's text, as it arrives, into a temporary file. */
class DataUrlSink {
  private head = '';
  private headDone = false;
  private carry = '';
  private out: WriteStream | null = null;
  readonly file: ReceivedFile;

  constructor(tempPath: string) {
    this.file = { path: tempPath, size: 0, claimed: '' };
  }

  /** The text seen before the content: the data URL's head, or the whole (short) value if it had none. */
  get prefix() {
    return this.headDone ? `${this.head},` : this.head;
  }

  async push(text: string): Promise<void> {
    if (!this.headDone) {
      const comma = text.indexOf(',');
      this.head += comma < 0 ? text : text.slice(0, comma);
      if (this.head.length > MAX_HEAD_CHARS) throw notDataUrl();
      if (comma < 0) return;
      const match = DATA_URL_HEAD.exec(this.head);
      if (!match) throw notDataUrl();
      this.headDone = true;
      this.file.claimed = (match[1] ?? '').toLowerCase();
      this.out = createWriteStream(this.file.path, { flags: 'wx' });
      text = text.slice(comma + 1);
    }
    if (NOT_BASE64.test(text)) throw notDataUrl();
    // Whole groups of 4 characters decode alone to the same bytes as the whole string would.
    const data = this.carry + text.replace(/\s+/g, '');
    const usable = data.length - (data.length % 4);
    this.carry = data.slice(usable);
    if (usable > 0) await this.write(Buffer.from(data.slice(0, usable), 'base64'));
  }

  /** The value ended: true when it was a data URL (its content is complete on disk), false when empty. */
  async end(): Promise<boolean> {
    if (!this.headDone) {
      if (this.head === '') return false;
      throw notDataUrl();
    }
    if (this.carry) await this.write(Buffer.from(this.carry, 'base64'));
    const out = this.out as WriteStream;
    out.end();
    await finished(out);
    if (this.file.size === 0) throw notDataUrl();
    return true;
  }

  /** Stops writing after a failure and removes the file, once closed (an open under way would create it again). */
  async discard() {
    if (this.out) {
      this.out.destroy();
      await finished(this.out).catch(() => {});
    }
    await rm(this.file.path, { force: true });
  }

  private async write(bytes: Buffer) {
    this.file.size += bytes.length;
    if (this.file.size > MAX_FILE_BYTES) throw tooLarge();
    const out = this.out as WriteStream;
    if (!out.write(bytes)) await once(out, 'drain');
  }
}

/** Builds the body from the token stream of one flat JSON object, sending the `file` string to a sink. */
class UploadBodyReader {
  readonly fields: Record<string, unknown> = {};
  sink: DataUrlSink | null = null;
  done = false;
  private started = false;
  private key = '';
  private readingKey = false;
  private value: 'small' | 'skip' | 'file' | 'number' | null = null;
  private text = '';

  constructor(private readonly newSink: () => DataUrlSink) {}

  /** Takes one token; a promise only while the file's bytes are being written (most tokens need no wait). */
  take(token: Token): Promise<void> | undefined {
    if (!this.started) {
      if (token.name !== 'startObject') throw badRequest({ body: INVALID_BODY });
      this.started = true;
      return;
    }
    switch (token.name) {
      case 'stringChunk':
      case 'numberChunk':
        return this.chunk(token.value);
      case 'startKey':
        this.readingKey = true;
        this.key = '';
        return;
      case 'endKey':
        this.readingKey = false;
        return;
      case 'startString':
        if (this.key !== 'file') {
          this.begin(SMALL_FIELDS.has(this.key) ? 'small' : 'skip');
          return;
        }
        if (this.sink) throw notDataUrl(); // a second file
        this.sink = this.newSink();
        this.value = 'file';
        return;
      case 'endString':
        return this.finish(this.text);
      case 'startNumber':
        this.begin('number');
        return;
      case 'endNumber':
        return this.finish(Number(this.text));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        this.keep(token.value);
        return;
      case 'endObject':
        this.done = true;
        return;
      default:
        // A nested object or array: no field of an upload is one.
        throw badRequest({
          [this.key === 'file' || SMALL_FIELDS.has(this.key) ? this.key : 'body']: 'Invalid value',
        });
    }
  }

  private begin(value: 'small' | 'skip' | 'number') {
    this.value = value;
    this.text = '';
  }

  private chunk(text: string) {
    if (this.readingKey) {
      if (this.key.length <= MAX_KEY_CHARS) this.key += text;
    } else if (this.value === 'file') {
      return this.sink?.push(text);
    } else if (this.value === 'small' || this.value === 'number') {
      if (this.text.length <= MAX_KEPT_CHARS)
        this.text += text.slice(0, MAX_KEPT_CHARS + 1 - this.text.length);
    }
  }

  private finish(value: unknown): Promise<void> | undefined {
    const kind = this.value;
    this.value = null;
    this.text = '';
    if (kind === 'file') return this.endFile(this.sink as DataUrlSink);
    if (kind !== 'skip') this.keep(value);
    return;
  }

  private async endFile(sink: DataUrlSink) {
    this.fields.file = (await sink.end()) ? sink.prefix : '';
  }

  private keep(value: unknown) {
    if (this.key === 'file' || SMALL_FIELDS.has(this.key)) this.fields[this.key] = value;
  }
}

/**
 * The content-type parser of the upload route: reads the JSON body as a stream (bounded by
 * MAX_UPLOAD_BODY_BYTES and MAX_FILE_BYTES), keeps the file on disk and answers the small fields, with
 * `file` standing for the content by its data URL head so the route's schema still checks it.
 */
export async function readUploadBody(
  request: FastifyRequest,
  payload: Readable,
  tempDir: string,
  idleMs = UPLOAD_IDLE_MS,
): Promise<Record<string, unknown>> {
  if (Number(request.headers['content-length']) > MAX_UPLOAD_BODY_BYTES) throw tooLarge();
  // Fastify sets no request timeout: a client that stops sending would hold its upload slot for good.
  let stalled = false;
  const idle = setTimeout(() => {
    stalled = true;
    payload.destroy(new Error('upload stalled'));
  }, idleMs);
  const reader = new UploadBodyReader(() => {
    const sink = new DataUrlSink(path.join(tempDir, `upload-${randomUUID()}`));
    // Known before the file exists, so that whoever ends the request can remove it.
    receivedFiles.set(request, sink.file);
    return sink;
  });
  // stream-json's tokenizer called directly, as its pipeline stages are: a third of the time of its
  // Duplex stream, which hands over the 27,000 tokens of a 5 MB upload one by one.
  const tokenize = jsonParser({ packValues: false, streamValues: true });
  const decoder = new StringDecoder('utf8');
  const feed = async (text: string | typeof none) => {
    // `none` flushes the tokenizer at the end (its type names only the text it takes).
    const result = tokenize(text as string);
    if (result === none) return;
    for (const token of getManyValues(result)) {
      const pending = reader.take(token);
      if (pending) await pending;
    }
  };
  let bytes = 0;
  try {
    for await (const chunk of payload as AsyncIterable<Buffer>) {
      idle.refresh();
      bytes += chunk.length;
      if (bytes > MAX_UPLOAD_BODY_BYTES) throw tooLarge();
      await feed(decoder.write(chunk));
    }
    await feed(decoder.end());
    await feed(none);
    if (!reader.done) throw badRequest({ body: INVALID_BODY });
    return reader.fields;
  } catch (error) {
    await reader.sink?.discard();
    receivedFiles.delete(request);
    if (error instanceof HttpError) throw error;
    if (stalled) throw new HttpError(408, { message: UPLOAD_STALLED_MESSAGE });
    // A failure of the disk or the connection stays what it is (the connection's has no one to answer).
    if ((error as NodeJS.ErrnoException).code) throw error;
    // The tokenizer's message names its internals: the client learns only that the JSON is broken.
    throw badRequest({ body: 'The body is not valid JSON' });
  } finally {
    clearTimeout(idle);
  }
}
