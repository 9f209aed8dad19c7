/**
 * Benchmark runner: `npm run bench [-- <suite> ...]`. Loads every module in bench/suites/ (each exports
 * `suite: Suite`), runs them one after another, prints a table and writes bench-results.json at the repo
 * root. Without arguments it runs every suite not marked optIn; with arguments, the named ones.
 * Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default
 * 50); PostgreSQL and NATS: lib/services.ts.
 */
import { readdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineBusyShare } from './lib/cpu.ts';
import { type BenchResult, formatTable, writeResults } from './lib/results.ts';
import { BENCH_DATABASE_URL } from './lib/services.ts';
import type { BenchSettings, Suite } from './lib/suite.ts';
import { formatTargets } from './lib/targets.ts';

const ROOT = join(import.meta.dirname, '..');
const SUITES = join(import.meta.dirname, 'suites');

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

const settings: BenchSettings = {
  durationS: numberFromEnv('BENCH_DURATION', 10),
  warmupS: numberFromEnv('BENCH_WARMUP', 2),
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  databaseUrl: BENCH_DATABASE_URL,
};

async function loadSuites(): Promise<Map<string, Suite>> {
  const files = (await readdir(SUITES)).filter((f) => f.endsWith('.ts')).sort();
  const suites = new Map<string, Suite>();
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(SUITES, file)).href)) as { suite?: Suite };
    if (!mod.suite) throw new Error(`bench/suites/${file} exports no suite`);
    suites.set(file.slice(0, -'.ts'.length), mod.suite);
  }
  return suites;
}

async function main() {
  const all = await loadSuites();
  const wanted = process.argv.slice(2);
  for (const name of wanted) {
    if (!all.has(name)) throw new Error(`unknown suite ${name}; known: ${[...all.keys()].join(', ')}`);
  }
  const selected = [...all].filter(([name, suite]) => (wanted.length ? wanted.includes(name) : !suite.optIn));

  const cpu = cpus();
  process.stderr.write(
    `bench: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}; ` +
      `${settings.durationS} s per target after ${settings.warmupS} s warm-up, ${settings.connections} connections\n`,
  );
  // Every figure here is CPU-bound on a shared machine: say so when something else is running.
  const busy = await machineBusyShare(1000);
  if (busy !== null && busy > 0.1) {
    process.stderr.write(
      `bench: WARNING: the machine is already ${(busy * 100).toFixed(0)}% busy before the run; ` +
        'figures will be low and noisy\n',
    );
  }
  const started = Date.now();
  const results: BenchResult[] = [];
  for (const [name, suite] of selected) {
    process.stderr.write(`bench: ${name} — ${suite.description}\n`);
    const suiteStarted = Date.now();
    results.push(
      ...(await suite.run({ settings, log: (message) => process.stderr.write(`  [${name}] ${message}\n`) })),
    );
    process.stderr.write(`bench: ${name} done in ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s\n`);
  }

  const out = join(ROOT, 'bench-results.json');
  await writeResults(out, results);
  process.stdout.write(`\n${formatTable(results)}\n\n${formatTargets(results)}\n\n`);
  process.stderr.write(`bench: wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s total\n`);
}

await main();
