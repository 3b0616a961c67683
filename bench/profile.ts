// Where the server's CPU goes in a list request: list (a) of list.ts through inject in this process
// (no HTTP client, no network), under V8's sampling profiler; prints the functions with the most self
// time, and the same grouped by package. Usage (after generate.ts):
//   npx tsx bench/profile.ts [--requests 2000]
import { Session } from 'node:inspector/promises';
import { benchAppInProcess, listFilterA } from './harness';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

/**
 * Time of each of the project's functions (packages/) including everything it calls, counted once
 * per sample even where a function calls itself: where a stage of the request spends its time.
 */
function inclusiveOfOwn(nodes: ProfileNode[]): Map<string, number> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const node of nodes) {
    if (node.hitCount === 0) continue;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      if (!url.includes('/packages/')) continue;
      const key = `${functionName || '(anonymous)'} ${url.split('/packages/')[1]}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + node.hitCount);
    }
  }
  return inclusive;
}

async function main() {
  const i = process.argv.indexOf('--requests');
  const requests = i >= 0 ? Number(process.argv[i + 1]) : 2000;
  const { db, bench, app, signIn } = await benchAppInProcess('bench_profile');
  const cookie = await signIn();
  // PROFILE_URL: another call to profile (its path and query); PROFILE_CALL=export: the CSV export of
  // list (a)'s whole filtered set (about 80,000 rows)
  const { limit: _limit, page: _page, ...wholeList } = listFilterA(bench);
  const url =
    process.env.PROFILE_URL ??
    (process.env.PROFILE_CALL === 'export'
      ? `/api/contentdossier/export/csv?${new URLSearchParams(wholeList)}`
      : `/api/contentdossier?${new URLSearchParams(listFilterA(bench))}`);
  const get = async () => {
    const response = await app.inject({ url, headers: { cookie } });
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.body.length;
  };
  for (let n = 0; n < Number(process.env.PROFILE_WARMUP ?? 200); n++) await get(); // warm: caches, JIT, the sort index learnt from use
  const size = await get();

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let n = 0; n < requests; n++) await get();
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };

  const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url: file, lineNumber } = node.callFrame;
    const where = file.replace(/^file:\/\//, '').replace(process.cwd(), '.');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.includes('/packages/')
        ? where.split('/packages/')[1].split('/src/')[0]
        : where
          ? 'node'
          : functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.hitCount);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  console.log(
    `${requests} requests of list (a) through inject: ${(elapsed / requests).toFixed(2)} ms each, ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms each, answer ${size} bytes`,
  );
  console.log(`\nby package (self time):\n${top(byPackage, 15)}`);
  console.log(`\nby function (self time):\n${top(byFunction, Number(process.env.TOPN ?? 40))}`);
  console.log(
    `\nthe server's own functions with what they call (inclusive time):\n${top(inclusiveOfOwn(profile.nodes), 30)}`,
  );
  await app.close();
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
