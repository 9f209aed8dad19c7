import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each integration file creates its own PostgreSQL schema, so files may run in parallel. Three at a time
    // even on two cores (vitest's default there is one): the end-to-end files spend much of their time
    // waiting on the processes they start (debates, restarts, rate-limit windows). With two, the cores were
    // busy 1.2 of 2 on average and the suite took 1,263 s; with three, 1.8 and 946 s (BENCHMARKS.md, "The
    // test suite's time").
    maxWorkers: 3,
    // Every run also leaves its per-file results in test-results/ (infra/test.sh prints the slowest files
    // from them, so a suite that grows slower shows in CI's log).
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'unit',
          // One module graph per worker, not per file: a unit or integration file spent more time importing
          // core (a few hundred modules, through vitest's transform) than running its tests; shared, the
          // two projects take 30 % and 55 % of the CPU they took (BENCHMARKS.md, "The test suite's time").
          // Their files keep no state in modules: each integration file makes its own schema and core, and
          // the two that fake timers put them back after each test.
          isolate: false,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          isolate: false,
          include: ['packages/*/src/**/*.integration.test.ts', 'apps/*/src/**/*.integration.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
