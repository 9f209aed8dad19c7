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
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
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
