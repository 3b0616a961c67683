// Where the wall time of one request goes, stage by stage: list (a) of list.ts, or with --call create
// its create (c), to the server in this process, listening on loopback, asked by one node:http client
// (keep-alive), 300 requests to warm up and 1,000 measured. Each stage's median is printed: the
// request reaching the server, fastify up to the handler, each SQL statement's round trip (sent to
// answered, as pg's client sees it; its text is printed below), the server's own work between and
// after them, and the answer going back. Usage (after generate.ts):
//   npx tsx bench/stages.ts [--requests 1000] [--call list|create]
import http from 'node:http';
import pg from 'pg';
import { benchAppInProcess, createBodyC, listFilterA } from './harness';

/** Marks of the request in flight (one client: one request at a time). */
let marks = new Map<string, number>();
const mark = (name: string) => {
  marks.set(name, performance.now());
};

/** The text of each statement of the request in flight, in order. */
let texts: string[] = [];

/** Marks `q<n> sent` and `q<n> answered` around every statement pg's clients send (n from 1). */
function markStatements() {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    const n = texts.push(String(typeof config === 'string' ? config : config?.text).replace(/\s+/g, ' '));
    mark(`q${n} sent`);
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise)
      result.then(
        () => mark(`q${n} answered`),
        () => {},
      );
    return result;
  } as typeof query;
}

async function main() {
  const option = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const requests = Number(option('--requests') ?? 1000);
  const call = option('--call') ?? 'list';
  if (call !== 'list' && call !== 'create') throw new Error('--call is list or create');
  const { db, bench, app, signIn } = await benchAppInProcess('bench_stages');
  app.addHook('onRequest', async () => {
    marks = new Map();
    texts = [];
    mark('server reached');
  });
  // (an onSend hook's return value would replace the answer: these return nothing)
  app.addHook('preHandler', async () => {
    mark('handler');
  });
  app.addHook('onSend', async () => {
    mark('answer serialised');
  });
  app.addHook('onResponse', async () => {
    mark('answer written');
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const cookie = await signIn();
  const path =
    call === 'list'
      ? `/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`
      : '/api/contentdossier';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  markStatements();

  const samples = new Map<string, number[]>();
  const add = (stage: string, ms: number | undefined) => {
    if (ms === undefined || Number.isNaN(ms)) return;
    const values = samples.get(stage) ?? [];
    values.push(ms);
    samples.set(stage, values);
  };
  let lastTexts: string[] = [];
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const sent = performance.now();
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          agent,
          method: call === 'list' ? 'GET' : 'POST',
          headers: {
            cookie,
            ...(call === 'create'
              ? { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }
              : {}),
          },
        },
        (response) => {
          if ((response.statusCode ?? 500) >= 300) {
            response.setEncoding('utf8');
            let body = '';
            response.on('data', (chunk) => (body += chunk));
            response.on('end', () => reject(new Error(`status ${response.statusCode}: ${body}`)));
            return;
          }
          response.resume();
          response.on('end', () => {
            const received = performance.now();
            const at = (name: string) => marks.get(name) ?? Number.NaN;
            const statements = texts.length;
            add('whole request, as the client sees it', received - sent);
            add('client to server', at('server reached') - sent);
            add('fastify up to the handler', at('handler') - at('server reached'));
            let before = at('handler');
            for (let n = 1; n <= statements; n++) {
              add(`server's work before statement ${n}`, at(`q${n} sent`) - before);
              add(`statement ${n}: round trip`, at(`q${n} answered`) - at(`q${n} sent`));
              before = at(`q${n} answered`);
            }
            add('building and serialising the answer', at('answer serialised') - before);
            add('writing the answer', at('answer written') - at('answer serialised'));
            add('server to client', received - at('answer written'));
            add('statements', statements);
            lastTexts = texts;
            resolve();
          });
        },
      );
      request.on('error', reject);
      request.end(call === 'create' ? createBodyC(bench) : undefined);
    });
  for (let n = 0; n < 300; n++) await get(); // warm: caches, JIT, the sort index the query earns
  samples.clear();
  for (let n = 0; n < requests; n++) await get();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `${call === 'list' ? 'list (a)' : 'create (c)'}, one client, ${requests} requests: median of each stage`,
  );
  for (const [stage, values] of samples) {
    const value = stage === 'statements' ? String(median(values)) : `${median(values).toFixed(3)} ms`;
    console.log(`${stage.padEnd(40)} ${value.padStart(10)}   (${values.length} requests)`);
  }
  console.log('\nthe statements of the last request:');
  for (const [n, text] of lastTexts.entries())
    console.log(`${String(n + 1).padStart(2)}. ${text.slice(0, 160)}`);
  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
