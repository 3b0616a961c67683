import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CSRF_HEADER, CSRF_VALUE, MAX_FILE_BYTES } from '@dossierbase/core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { testDatabaseKind, testPostgresUrl } from '../../../test/test-app';

// Issue 12, defect 2: with the heap `npm start` gives the server (192 MB), 40 parallel uploads of 5 MB
// by members ended the process ("JavaScript heap out of memory"). The server runs in a child process
// with that heap; every upload must be stored (201) or refused at once (429), and the server must
// still answer afterwards. Once is enough: it runs with the embedded PostgreSQL's project, on a schema
// of that run's cluster, as npm start runs.
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const script = path.join(repoRoot, 'packages/server/test/upload-memory-server.ts');
const USERS = 10;
const UPLOADS = 40;

let child: ChildProcess | undefined;
let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'upload-memory-test-'));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await rm(tempDir, { recursive: true, force: true });
});

interface Started {
  port: number;
  environment: number;
  users: { username: string; password: string }[];
}

async function startServer(): Promise<Started> {
  child = spawn(
    process.execPath,
    ['--max-old-space-size=192', '--import', 'tsx', script, String(USERS), tempDir],
    {
      cwd: repoRoot,
      env: { ...process.env, TEST_DB: 'embedded', TEST_EMBEDDED_URL: testPostgresUrl() },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit')])) as [string];
  if (child.exitCode !== null) throw new Error(`the server ended before it listened (${child.exitCode})`);
  return JSON.parse(line) as Started;
}

async function signIn(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
    body: JSON.stringify({ username, password }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** One upload over real HTTP; resolves to the status, or to the error's code if the connection broke. */
function upload(port: number, cookie: string, body: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path: '/api/file',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        cookie,
        [CSRF_HEADER]: CSRF_VALUE,
      },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    request.end(body);
  });
}

test.skipIf(testDatabaseKind() !== 'embedded')(
  'a server with a 192 MB heap survives 40 parallel uploads of 5 MB',
  async () => {
    const started = Date.now();
    const server = await startServer();
    const listening = Date.now();
    const base = `http://127.0.0.1:${server.port}`;
    const cookies: string[] = [];
    for (const user of server.users) cookies.push(await signIn(base, user.username, user.password));
    // One body for every request, so that the test's own memory stays small.
    const body = Buffer.from(
      JSON.stringify({
        name: 'large.bin',
        description: 'five megabytes',
        file: `data:application/octet-stream;base64,${randomBytes(MAX_FILE_BYTES).toString('base64')}`,
        environment: server.environment,
      }),
    );
    let exited = false;
    child?.once('exit', () => {
      exited = true;
    });

    const sent = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: UPLOADS }, (_, i) => upload(server.port, cookies[i % USERS], body)),
    );

    expect(exited).toBe(false);
    const counts = statuses.reduce<Record<string, number>>((all, status) => {
      all[status] = (all[status] ?? 0) + 1;
      return all;
    }, {});
    expect(
      Object.keys(counts).every((status) => status === '201' || status === '429'),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts['201']).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${base}/api/config`)).status).toBe(200);
    // Every temporary file is gone once its upload has been answered.
    await vi.waitFor(async () => expect(await readdir(tempDir)).toEqual([]), { timeout: 10_000 });
    child?.send('peak');
    const [{ peakHeap }] = (await once(child as ChildProcess, 'message')) as [{ peakHeap: number }];
    console.log(
      `uploads: ${JSON.stringify(counts)} in ${Date.now() - sent} ms, peak heap ${Math.round(peakHeap / 2 ** 20)} MB; ` +
        `server start ${listening - started} ms`,
    );
    expect(peakHeap).toBeLessThan(192 * 2 ** 20);
  },
  180_000,
);
