// npm start: build the web client if needed, then run the server (migrates and seeds on start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(import.meta.dirname, '..');
buildWebIfNeeded();
const server = spawn(
  path.join(root, 'node_modules/.bin/tsx'),
  [path.join(root, 'packages/server/src/main.ts')],
  {
    stdio: 'inherit',
    env: process.env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
