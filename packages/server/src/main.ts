import { buildApp } from './app';
import { loadJwtSecret } from './auth/session';
import { loadConfig } from './config';
import { isDatabaseUnavailable } from './db/availability';
import { migrate, warnConnectionLost } from './db/database';
import { embeddedClusterDir, openConfiguredDatabase } from './db/embedded-postgres';
import { indexJobsIdle } from './query/index-jobs';
import { attachRealtime } from './realtime/socket';
import { resumeSummaryRefreshes, writeMissingVariants } from './resources/content-dossier/summary-refresh';
import { seedDemo } from './seed';
import { seedDemoRecords } from './seed-records';

// A promise nobody awaited that fails (a background job's lost connection, say) is logged; the
// server goes on serving instead of ending for good.
process.on('unhandledRejection', (reason) => console.error('Unhandled rejection:', reason));

const config = loadConfig();
// Ctrl-C reaches the embedded PostgreSQL too (one process group), which closes our connections
// while the server stops: expected then, so not reported.
let stopping = false;
// Without DATABASE_URL the server runs a PostgreSQL of its own in DATA_DIR (or PGlite, see config.ts).
const { db, cluster: embedded } = await openConfiguredDatabase(config, (error) => {
  if (!stopping) warnConnectionLost(error);
});
// A database that is not up yet (both started together, or an outage) is waited for.
for (let attempt = 1; ; attempt += 1) {
  try {
    await migrate(db);
    break;
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    console.warn(`Database unavailable (attempt ${attempt}), retrying in 2 s: ${(error as Error).message}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
if (config.seedDemo) {
  const seeded = await seedDemo(db, config);
  if (seeded.created) await seedDemoRecords(db);
  for (const { username, password } of seeded.generated) {
    console.log(
      `Demo account created: ${username} / ${password}  (shown once; set ADMIN_PASSWORD / DEMO_PASSWORD to choose)`,
    );
  }
}
// summaries written before their entity's restricted summary items had variants get them
writeMissingVariants(db).catch((error) => console.error('Writing summary variants failed:', error));
// rewrites of summaries that a stopped node left half-way go on
resumeSummaryRefreshes(db).catch((error) => console.error('Resuming summary rewrites failed:', error));
const app = await buildApp({ config, db, jwtSecret: await loadJwtSecret(db, process.env.JWT_SECRET) });
await attachRealtime(app);
await app.listen({ port: config.port, host: config.host });
const database = config.databaseUrl
  ? 'PostgreSQL'
  : embedded
    ? `its own PostgreSQL in ${embeddedClusterDir(config.dataDir)}`
    : `PGlite in ${config.dataDir}`;
console.log(`Dossierbase ${config.release} on ${config.publicUrl} (${database})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    stopping = true;
    await app.close();
    await indexJobsIdle(db);
    await db.destroy();
    await embedded?.stop();
    process.exit(0);
  });
}
