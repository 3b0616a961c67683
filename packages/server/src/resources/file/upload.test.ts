import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_VALUE, MAX_FILE_BYTES, UPLOAD_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type AdminSetup, adminSetup } from '../../../test/entity-test-setup';
import { createTestApp, type TestApp, type TestClient } from '../../../test/test-app';
import { FILE_CHUNK_BYTES } from './service';

// Issue 12, defect 2: uploads stream to disk, are stored and served in chunks, and are bounded in
// size and in number at once (per user and per server).

let t: TestApp;
let tempDir: string;
let s: AdminSetup;
let port: number;
beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'upload-test-'));
  t = await createTestApp({
    uploadTempDir: tempDir,
    maxConcurrentUploads: 8,
    maxConcurrentUploadsPerUser: 3,
  });
  s = await adminSetup(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
const requests: http.ClientRequest[] = [];
afterAll(async () => {
  // An upload a failed test left open would keep the server from closing.
  for (const request of requests) request.destroy();
  await t.close();
  await rm(tempDir, { recursive: true, force: true });
});

const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
// Temporary files are removed once the response has gone out, so a moment after the client has it.
const noTempFiles = () =>
  vi.waitFor(async () => expect(await readdir(tempDir)).toEqual([]), { timeout: 5_000, interval: 50 });
const fileRows = async () =>
  (await t.db.selectFrom('file').select('id').where('environment_id', '=', s.environment.id).execute())
    .length;

describe('POST /api/file streams the upload', () => {
  test('a 5 MB file is stored in chunks and downloads byte for byte', async () => {
    const bytes = randomBytes(MAX_FILE_BYTES);
    const response = await s.member.post('/api/file', {
      name: 'large.bin',
      description: 'the largest file allowed',
      file: dataUrl('application/octet-stream', bytes),
      environment: s.environment.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json();
    expect(file).toMatchObject({
      filename: 'large.bin',
      size: MAX_FILE_BYTES,
      mime: 'application/octet-stream',
    });

    const chunks = await t.db
      .selectFrom('file_chunk')
      .select(['seq', (eb) => eb.fn('octet_length', ['bytes']).as('length')])
      .where('environment_id', '=', s.environment.id)
      .where('file_id', '=', file.id)
      .orderBy('seq')
      .execute();
    expect(chunks.map((c) => c.seq)).toEqual([...Array(MAX_FILE_BYTES / FILE_CHUNK_BYTES).keys()]);
    expect(chunks.every((c) => Number(c.length) === FILE_CHUNK_BYTES)).toBe(true);

    const download = await s.admin.get(`/api/file/${file.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(MAX_FILE_BYTES));
    expect(download.headers['content-disposition']).toBe('attachment; filename=large.bin');
    expect(download.rawPayload.equals(bytes)).toBe(true);
    await noTempFiles();
  });

  test('base64 in lines, with escaped slashes and a short last chunk, decodes to the same bytes', async () => {
    const bytes = randomBytes(FILE_CHUNK_BYTES + 1000);
    const lines = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
    const body = JSON.stringify({ name: 'lines.bin', file: `data:application/octet-stream;base64,${lines}` })
      .replace(/\//g, '\\/')
      .replace(/}$/, `,"environment":${s.environment.id}}`);
    const response = await s.member.request({
      method: 'POST',
      url: '/api/file',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const download = await s.member.get(`/api/file/${response.json().id}/download`);
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  test('a file over the limit is refused while it streams: 400, no row, no temporary file', async () => {
    const before = await fileRows();
    const response = await s.member.post('/api/file', {
      name: 'big.bin',
      file: dataUrl('application/octet-stream', Buffer.alloc(MAX_FILE_BYTES + 1)),
      environment: s.environment.id,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { file: UPLOAD_MESSAGES.tooLarge } });
    // A body declared larger than any upload is refused before it is read.
    const declared = await s.member.request({
      method: 'POST',
      url: '/api/file',
      payload: '{}',
      headers: { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024) },
    });
    expect(declared.statusCode).toBe(400);
    expect(declared.json()).toEqual({ errors: { file: UPLOAD_MESSAGES.tooLarge } });
    expect(await fileRows()).toBe(before);
    await noTempFiles();
  });

  test('malformed bodies answer 400 with a field message and leave nothing behind', async () => {
    const base = {
      name: 'a.txt',
      file: dataUrl('text/plain', Buffer.from('words')),
      environment: s.environment.id,
    };
    const raw = (payload: string) =>
      s.member.request({
        method: 'POST',
        url: '/api/file',
        payload,
        headers: { 'content-type': 'application/json' },
      });
    const before = await fileRows();
    expect((await raw('{"name": "a.txt", "file": "data:text/plain;base64,d29y')).json()).toEqual({
      errors: { body: 'The body is not valid JSON' },
    });
    expect((await raw('[1, 2]')).json()).toEqual({ errors: { body: 'The body must be a JSON object' } });
    expect((await raw('')).statusCode).toBe(400);
    expect((await s.member.post('/api/file', { ...base, name: { nested: true } })).json()).toEqual({
      errors: { name: 'Invalid value' },
    });
    expect(
      (await s.member.post('/api/file', { ...base, file: 'data:text/plain;base64,d29y@@' })).json(),
    ).toEqual({
      errors: { file: UPLOAD_MESSAGES.dataUrl },
    });
    expect((await s.member.post('/api/file', { ...base, file: `data:${'x'.repeat(300)}` })).json()).toEqual({
      errors: { file: UPLOAD_MESSAGES.dataUrl },
    });
    // Long values are cut while read; the schema still refuses them with its own message.
    const longName = await s.member.post('/api/file', { ...base, name: 'x'.repeat(100_000) });
    expect(longName.statusCode).toBe(400);
    expect(Object.keys(longName.json().errors)).toEqual(['name']);
    expect((await s.member.post('/api/file', { ...base, file: 42 })).statusCode).toBe(400);
    expect((await s.member.post('/api/file', { name: 'a', environment: s.environment.id })).statusCode).toBe(
      400,
    );
    expect(await fileRows()).toBe(before);
    // Unknown keys are skipped, however long.
    expect((await s.member.post('/api/file', { ...base, extra: 'y'.repeat(100_000) })).statusCode).toBe(201);
    // Signed out: refused before the body is read.
    const anonymous = t.client();
    expect((await anonymous.post('/api/file', base)).statusCode).toBe(401);
    await noTempFiles();
  });
});

const cookieHeader = (client: TestClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** An upload over real HTTP whose body is sent in parts, as the test decides. */
function slowUpload(client: TestClient, first: string, total: number) {
  const request = http.request({
    host: '127.0.0.1',
    port,
    path: '/api/file',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': total,
      cookie: cookieHeader(client),
      [CSRF_HEADER]: CSRF_VALUE,
    },
  });
  requests.push(request);
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
  request.write(first);
  return { request, answer };
}

describe('uploads at once are bounded', () => {
  const content = Buffer.from('slowly sent words');
  const parts = () => {
    const body = JSON.stringify({
      name: 'slow.txt',
      environment: s.environment.id,
      file: dataUrl('text/plain', content),
    });
    const cut = body.indexOf('base64,') + 'base64,'.length + 4;
    return { first: body.slice(0, cut), rest: body.slice(cut), total: Buffer.byteLength(body) };
  };
  const small = (client: TestClient) =>
    client.post('/api/file', {
      name: 'quick.txt',
      file: dataUrl('text/plain', content),
      environment: s.environment.id,
    });

  test('a user with 3 uploads in progress gets 429 for a 4th, at once; others still upload', async () => {
    const { first, rest, total } = parts();
    const held = [0, 1, 2].map(() => slowUpload(s.member, first, total));
    // Each has its temporary file once its first base64 has arrived; their bodies are incomplete.
    await vi.waitFor(async () => expect(await readdir(tempDir)).toHaveLength(3), { timeout: 10_000 });
    const fourth = await small(s.member);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: UPLOAD_MESSAGES.busy });
    // Over real HTTP too, with a body that is never sent: the answer does not wait for it.
    const unsent = slowUpload(s.member, '', 1000);
    expect((await unsent.answer).status).toBe(429);
    expect((await small(s.admin)).statusCode).toBe(201);

    for (const upload of held) upload.request.end(rest);
    const answers = await Promise.all(held.map((upload) => upload.answer));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const download = await s.member.get(`/api/file/${JSON.parse(answers[0].body).id}/download`);
    expect(download.rawPayload.equals(content)).toBe(true);
    await vi.waitFor(async () => expect((await small(s.member)).statusCode).toBe(201), { timeout: 5_000 });
  });

  test('an upload the client abandons gives back its slot and its temporary file', async () => {
    const { first, total } = parts();
    const held = [0, 1, 2].map(() => slowUpload(s.member, first, total));
    for (const upload of held) upload.answer.catch(() => {});
    await vi.waitFor(async () => expect(await readdir(tempDir)).toHaveLength(3), { timeout: 10_000 });
    expect((await small(s.member)).statusCode).toBe(429);
    for (const upload of held) upload.request.destroy();
    await noTempFiles();
    await vi.waitFor(async () => expect((await small(s.member)).statusCode).toBe(201), { timeout: 5_000 });
  });
});
