// The (d) load of bench/list.ts in a process of its own, so the clients do not share the server's
// event loop: CONCURRENCY clients request URL (with COOKIE) for SECONDS over kept-alive connections
// (node:http, lighter than fetch, as a load generator should be) and print the counts as JSON, in
// all and per second, with the CPU time the clients used.
import http from 'node:http';

const { URL: url, COOKIE: cookie, CONCURRENCY, SECONDS, CSRF_HEADER, CSRF_VALUE } = process.env;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(CONCURRENCY) });
const headers = { cookie, [CSRF_HEADER]: CSRF_VALUE };

function get() {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve(response.statusCode));
      })
      .on('error', reject);
  });
}

const start = performance.now();
const until = start + Number(SECONDS) * 1000;
let done = 0;
let failed = 0;
const perSecond = Array.from({ length: Number(SECONDS) }, () => 0);
await Promise.all(
  Array.from({ length: Number(CONCURRENCY) }, async () => {
    while (performance.now() < until) {
      if ((await get()) === 200) {
        done += 1;
        perSecond[Math.min(perSecond.length - 1, Math.floor((performance.now() - start) / 1000))] += 1;
      } else failed += 1;
    }
  }),
);
agent.destroy();
const cpu = process.cpuUsage();
console.log(JSON.stringify({ done, failed, perSecond, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
