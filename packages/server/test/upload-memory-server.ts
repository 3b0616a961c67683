// The server of upload-memory.test.ts, run in a child process with the heap of `npm start` (192 MB) on
// the test run's embedded PostgreSQL (TEST_EMBEDDED_URL): `node --max-old-space-size=192 --import tsx upload-memory-server.ts <users> <temp dir>`.
// Prints one JSON line {port, environment, users} once it listens; answers the IPC message 'peak'
// with the largest heap it has seen.
import { buildApp } from '../src/app';
import { buildEnvironment, buildUser, DEFAULT_PASSWORD } from './factories';
import { createTestDatabase, testConfig } from './test-app';

const userCount = Number(process.argv[2] ?? 10);
const uploadTempDir = process.argv[3];
const database = await createTestDatabase();
const users = [];
for (let i = 0; i < userCount; i++) users.push(await buildUser(database.db));
const environment = await buildEnvironment(database.db, { members: users.map((user) => ({ user })) });
const app = await buildApp({
  config: testConfig(uploadTempDir ? { uploadTempDir } : {}),
  db: database.db,
  jwtSecret: new TextEncoder().encode('test-secret-of-enough-length!!'),
});
await app.listen({ port: 0, host: '127.0.0.1' });

let peakHeap = 0;
const sample = () => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};
setInterval(sample, 20).unref();
process.on('message', (message) => {
  sample();
  if (message === 'peak') process.send?.({ peakHeap });
});
process.on('disconnect', () => process.exit(0));

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(
  JSON.stringify({
    port,
    environment: environment.id,
    users: users.map((user) => ({ username: user.username, password: DEFAULT_PASSWORD })),
  }),
);
