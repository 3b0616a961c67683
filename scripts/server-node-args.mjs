// How `npm start` runs the server's Node, shared with bench/list.ts so the benchmark measures the
// server exactly as it is started. SERVER_NODE_ARGS (space-separated) replaces the memory flags, for
// trying other settings in the benchmark.
//
// Memory: a young generation of 8 MB semi-spaces instead of 16 keeps the peak resident memory about
// 80 MB lower under load at the same throughput. A 192 MB old generation (the server's live data is
// far below it; PGlite's memory lies outside it) makes V8 collect before it grows: under the
// benchmark's 10 clients the peak was 291-314 MB without it and 185 MB with it, at the same
// throughput.
const memoryFlags = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [
  '--max-semi-space-size=8',
  '--max-old-space-size=192',
];

/** Node arguments before the entry file: memory flags, then the tsx loader (no wrapper process). */
export const serverNodeArgs = [...memoryFlags, '--import', 'tsx'];
