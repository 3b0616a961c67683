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

// npm runs this script through `sh -c`, which does not pass signals on: a process manager that stops
// `npm start` with SIGTERM ends npm and sh and left this process, the server and its PostgreSQL
// running. Run by npm, the server is stopped as on a signal once this process's parent is gone.
if (process.env.npm_lifecycle_event === 'start') {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    server.kill('SIGTERM');
  }, 500);
  watch.unref();
}
