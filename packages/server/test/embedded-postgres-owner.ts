// A process that starts npm start's embedded PostgreSQL in the data directory given and then waits
// to be killed, as a server is: embedded-postgres.test.ts SIGKILLs it and starts again.
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';

const cluster = await startEmbeddedPostgres(process.argv[2]);
process.stdout.write(`${cluster.url}\n`);
setInterval(() => {}, 60_000);
