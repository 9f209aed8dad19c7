/**
 * The PostgreSQL and NATS the benchmarks run against: unlike the tests (which get a throwaway server of
 * each from `npm test`), the benchmarks measure the machine's own servers by default, as BENCHMARKS.md's
 * figures were taken. DATABASE_URL and NATS_URL (or TEST_NATS_URL, the older name) point them elsewhere.
 */
export const BENCH_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BENCH_NATS_URL = process.env.NATS_URL ?? process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
