import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, round } from '../lib/results.ts';
import { type StartTime, timeToHealthy } from '../lib/start-to-healthy.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);

const median = (sorted: number[]) => sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;

/** min/median/max of the wall time, and the median CPU time, of one kind of start. */
function summary(area: string, what: string, samples: StartTime[]): BenchResult[] {
  const wall = samples.map((s) => s.ms).sort((a, b) => a - b);
  const cpu = samples.flatMap((s) => (s.cpuMs === null ? [] : [s.cpuMs])).sort((a, b) => a - b);
  const detail = `${what}; ${wall.length} runs, wall ${wall.map(Math.round).join(', ')} ms, CPU ${cpu.join(', ')} ms`;
  const row = (metric: string, value: number): BenchResult => ({
    name: `startup.${area}.${metric}`,
    value: round(value, 0),
    unit: 'ms',
    better: 'lower',
    detail,
  });
  return [
    row('min_ms', wall[0] ?? 0),
    row('median_ms', median(wall)),
    row('max_ms', wall.at(-1) ?? 0),
    ...(cpu.length ? [row('cpu_median_ms', median(cpu))] : []),
  ];
}

const show = (t: StartTime) => `${Math.round(t.ms)} ms (CPU ${t.cpuMs ?? '?'} ms)`;

async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function run({ log }: SuiteContext): Promise<BenchResult[]> {
  const first: StartTime[] = [];
  const warm: StartTime[] = [];
  for (let i = 0; i < RUNS; i++) {
    await withTempDir('verdict-startup-', async (dataDir) => {
      first.push(await timeToHealthy({ DATA_DIR: dataDir }));
      warm.push(await timeToHealthy({ DATA_DIR: dataDir }));
      log(`run ${i + 1}/${RUNS}: first ${show(first.at(-1)!)}, warm ${show(warm.at(-1)!)}`);
    });
  }
  // A first start when install scripts did not run: an empty template folder leaves nothing to copy.
  const bare: StartTime[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    await withTempDir('verdict-startup-', (dataDir) =>
      withTempDir('verdict-no-template-', async (templates) => {
        bare.push(await timeToHealthy({ DATA_DIR: dataDir, PGLITE_TEMPLATES: templates }));
        log(`first start without a template: ${show(bare.at(-1)!)}`);
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
