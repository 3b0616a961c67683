// npm start: build the web client if needed, then run the server (migrates and seeds on start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(import.meta.dirname, '..');
buildWebIfNeeded();
// Node with the tsx loader directly (no wrapper process). A young generation of 8 MB semi-spaces
// instead of 16 keeps the server's peak resident memory about 80 MB lower under load at the same
// throughput (bench/list.ts measures the server started exactly like this).
const SERVER_NODE_ARGS = ['--max-semi-space-size=8', '--import', 'tsx'];
const server = spawn(
  process.execPath,
  [...SERVER_NODE_ARGS, path.join(root, 'packages/server/src/main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
