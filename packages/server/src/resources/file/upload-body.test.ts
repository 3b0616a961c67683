import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { MAX_FILE_BYTES, UPLOAD_MESSAGES } from '@dossierbase/core';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpError } from '../../http-errors';
import { discardReceivedFile, readUploadBody, receivedFile, UPLOAD_STALLED_MESSAGE } from './upload-body';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'upload-body-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const fakeRequest = (headers: Record<string, string> = {}) => ({ headers }) as unknown as FastifyRequest;

/** Sends the body in pieces of `size` bytes (splitting characters and base64 groups anywhere). */
function streamOf(body: string, size: number) {
  const payload = new PassThrough();
  const bytes = Buffer.from(body);
  (async () => {
    for (let i = 0; i < bytes.length; i += size) {
      payload.write(bytes.subarray(i, i + size));
      await new Promise((resolve) => setImmediate(resolve));
    }
    payload.end();
  })();
  return payload;
}

const refusal = (error: unknown) => (error instanceof HttpError ? [error.statusCode, error.body] : error);

describe('readUploadBody', () => {
  test('keeps the small fields and writes the data URL content to a file, however the body is cut', async () => {
    const content = randomBytes(100_000);
    const body = JSON.stringify({
      name: 'naïve €uro 文件.bin',
      description: 'line\nbreak "quoted" \\ back',
      environment: 17,
      unknown: 'skipped',
      file: `data:Text/Plain;charset=utf-8;base64,${content.toString('base64')}`,
    });
    for (const size of [1, 7, 1000, 65536]) {
      const ok = fakeRequest();
      const read = await readUploadBody(ok, streamOf(body, size), dir);
      expect(read).toEqual({
        name: 'naïve €uro 文件.bin',
        description: 'line\nbreak "quoted" \\ back',
        environment: 17,
        file: 'data:Text/Plain;charset=utf-8;base64,',
      });
      const file = receivedFile(ok);
      expect(file).toMatchObject({ size: content.length, claimed: 'text/plain' });
      expect((await readFile(file?.path as string)).equals(content)).toBe(true);
      await discardReceivedFile(ok);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  test('refuses nested values (no field of an upload is one), also under unknown keys', async () => {
    for (const [body, field] of [
      ['{"name":{"a":1},"file":"data:text/plain;base64,d29yZHM="}', 'name'],
      ['{"file":["data:text/plain;base64,d29yZHM="]}', 'file'],
      ['{"unknown":[1],"file":"data:text/plain;base64,d29yZHM="}', 'body'],
    ]) {
      expect(await readUploadBody(fakeRequest(), streamOf(body, 5), dir).catch(refusal)).toEqual([
        400,
        { errors: { [field]: 'Invalid value' } },
      ]);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  test('refuses a file over the limit as soon as it passes it and removes what it wrote', async () => {
    const body = JSON.stringify({
      name: 'big',
      file: `data:application/octet-stream;base64,${Buffer.alloc(MAX_FILE_BYTES + 3).toString('base64')}`,
      environment: 1,
    });
    const request = fakeRequest();
    expect(await readUploadBody(request, streamOf(body, 65536), dir).catch(refusal)).toEqual([
      400,
      { errors: { file: UPLOAD_MESSAGES.tooLarge } },
    ]);
    expect(receivedFile(request)).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  test('ends an upload that stops arriving with 408 and removes what it wrote', async () => {
    const payload = new PassThrough();
    payload.write('{"name":"slow","environment":1,"file":"data:text/plain;base64,d29yZHMgd29y');
    const request = fakeRequest();
    expect(await readUploadBody(request, payload, dir, 100).catch(refusal)).toEqual([
      408,
      { message: UPLOAD_STALLED_MESSAGE },
    ]);
    expect(await readdir(dir)).toEqual([]);
  });
});
