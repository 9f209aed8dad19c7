// For the benchmarks, which price each piece of per-request work on its own (bench/suites/metrics.ts, tracing.ts).
export { measureRequests } from './http/metrics.ts';
export { buildServer, type ServerOptions } from './http/server.ts';
export { traceRequests } from './http/tracing.ts';
export { type AppRouter, appRouter } from './router.ts';
// For the benchmarks that run the API on uWebSockets.js (bench/suites/edge.ts, streams.ts): how to start a
// node process that loads its binary.
export { nodeCommandForUws } from './startup/node-with-uws.ts';
