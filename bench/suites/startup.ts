import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, round } from '../lib/results.ts';
import { msToHealthy } from '../lib/start-to-healthy.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);

function summary(area: string, what: string, samples: number[]): BenchResult[] {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  const detail = `${what}; ${sorted.length} runs: ${sorted.map((ms) => Math.round(ms)).join(', ')} ms`;
  return [
    { name: `startup.${area}.min_ms`, value: round(sorted[0] ?? 0, 0), unit: 'ms', better: 'lower', detail },
    { name: `startup.${area}.median_ms`, value: round(median, 0), unit: 'ms', better: 'lower', detail },
    {
      name: `startup.${area}.max_ms`,
      value: round(sorted.at(-1) ?? 0, 0),
      unit: 'ms',
      better: 'lower',
      detail,
    },
  ];
}

async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function run({ log }: SuiteContext): Promise<BenchResult[]> {
  const first: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await withTempDir('verdict-startup-', async (dataDir) => {
      first.push(await msToHealthy({ DATA_DIR: dataDir }));
      warm.push(await msToHealthy({ DATA_DIR: dataDir }));
      log(`run ${i + 1}/${RUNS}: first ${Math.round(first.at(-1)!)} ms, warm ${Math.round(warm.at(-1)!)} ms`);
    });
  }
  // A first start when install scripts did not run: an empty template folder leaves nothing to copy.
  const bare: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    await withTempDir('verdict-startup-', (dataDir) =>
      withTempDir('verdict-no-template-', async (templates) => {
        bare.push(await msToHealthy({ DATA_DIR: dataDir, PGLITE_TEMPLATES: templates }));
        log(`first start without a template: ${Math.round(bare.at(-1)!)} ms`);
      }),
    );
  }
  const how =
    'spawn of what npm start runs (apps/api/src/start.ts; embedded mode, no keys) to the first 200 from GET /health';
  return [
    ...summary('first_start', `${how}, empty DATA_DIR`, first),
    ...summary('warm_start', `${how}, DATA_DIR holding the database of the previous start`, warm),
    ...summary('first_start_no_template', `${how}, empty DATA_DIR, no prepared template`, bare),
  ];
}

export const suite: Suite = {
  description: 'embedded npm start to healthy: first start on an empty DATA_DIR, warm start, no template',
  optIn: true,
  run,
};
