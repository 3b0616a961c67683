// npm start: build the web client if needed, then run the server (migrates and seeds on start).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWebIfNeeded } from './build-web.mjs';
import { serverNodeArgs } from './server-node-args.mjs';

const root = path.resolve(import.meta.dirname, '..');
buildWebIfNeeded();
const server = spawn(process.execPath, [...serverNodeArgs, path.join(root, 'packages/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
