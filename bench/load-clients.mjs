// The (d) load of bench/list.ts in a process of its own, so the clients do not share the server's
// event loop: CONCURRENCY clients request URL (with COOKIE) for SECONDS and print the count as JSON.
const { URL: url, COOKIE: cookie, CONCURRENCY, SECONDS, CSRF_HEADER, CSRF_VALUE } = process.env;
const until = performance.now() + Number(SECONDS) * 1000;
let done = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: Number(CONCURRENCY) }, async () => {
    while (performance.now() < until) {
      const response = await fetch(url, { headers: { cookie, [CSRF_HEADER]: CSRF_VALUE } });
      await response.arrayBuffer();
      if (response.status === 200) done += 1;
      else failed += 1;
    }
  }),
);
console.log(JSON.stringify({ done, failed }));
