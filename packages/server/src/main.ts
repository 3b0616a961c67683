import { buildApp } from './app';
import { loadJwtSecret } from './auth/session';
import { loadConfig } from './config';
import { migrate, openDatabase } from './db/database';
import { indexJobsIdle } from './query/index-jobs';
import { attachRealtime } from './realtime/socket';
import { seedDemo } from './seed';
import { seedDemoRecords } from './seed-records';

const config = loadConfig();
const db = await openDatabase(config);
await migrate(db);
if (config.seedDemo) {
  const seeded = await seedDemo(db, config);
  if (seeded.created) await seedDemoRecords(db);
  for (const { username, password } of seeded.generated) {
    console.log(
      `Demo account created: ${username} / ${password}  (shown once; set ADMIN_PASSWORD / DEMO_PASSWORD to choose)`,
    );
  }
}
const app = await buildApp({ config, db, jwtSecret: await loadJwtSecret(db, process.env.JWT_SECRET) });
await attachRealtime(app);
await app.listen({ port: config.port, host: config.host });
console.log(
  `Dossierbase ${config.release} on ${config.publicUrl} (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    await indexJobsIdle(db);
    await db.destroy();
    process.exit(0);
  });
}
