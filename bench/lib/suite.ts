import type { BenchResult } from './results.ts';

/** Shared knobs of a run, read once from the environment by bench/run.ts. */
export type BenchSettings = {
  /** Measured seconds per target (BENCH_DURATION, default 10). */
  durationS: number;
  /** Discarded seconds before each measurement (BENCH_WARMUP, default 2). */
  warmupS: number;
  /** Concurrent HTTP connections of the load generator (BENCH_CONNECTIONS, default 50). */
  connections: number;
  /** PostgreSQL for distributed-mode suites (DATABASE_URL). */
  databaseUrl: string;
};

export type SuiteContext = {
  settings: BenchSettings;
  /** Progress on stderr, prefixed with the suite name; stdout is kept for the results table. */
  log: (message: string) => void;
};

/**
 * A module in bench/suites/. `run` returns its result rows; bench/run.ts prints and stores them.
 * Suites marked `optIn` run only when named on the command line (`npm run bench -- <name>`).
 */
export type Suite = {
  description: string;
  optIn?: boolean;
  run: (ctx: SuiteContext) => Promise<BenchResult[]>;
};
