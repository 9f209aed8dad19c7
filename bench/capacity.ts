/**
 * The capacity model (docs/capacity.md) from a bench run: `npm run capacity -- [results.json …] [options]`.
 * Prints the per-unit costs, the answers and the two-size check's errors (docs/capacity.md's tables).
 *   results.json …         bench runs (default: bench-results.json at the repo root); of several, a row of a
 *                          later file replaces a row of the same name in an earlier one (suites run apart)
 *   --write <doc>          rewrite the doc's generated tables from this run
 *   --check <doc>          exit 1 when the doc's tables are not this run's, or a check misses 25 %
 *   --snapshot <file>      keep this run's rows the model reads in <file> (docs/capacity-inputs.json)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_KEYS } from './lib/capacity-costs.ts';
import {
  CHECK_TOLERANCE,
  checkRows,
  generatedPart,
  renderTables,
  withTables,
} from './lib/capacity-report.ts';
import type { BenchResult } from './lib/results.ts';

const ROOT = join(import.meta.dirname, '..');

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a path`);
  args.splice(i, 2);
  return value;
}

function main(): number {
  const args = process.argv.slice(2);
  const write = option(args, '--write');
  const check = option(args, '--check');
  const snapshot = option(args, '--snapshot');
  const inputs = args.length ? args : [join(ROOT, 'bench-results.json')];
  const byName = new Map<string, BenchResult>();
  for (const input of inputs) {
    for (const r of JSON.parse(readFileSync(input, 'utf8')) as BenchResult[]) byName.set(r.name, r);
  }
  const results = [...byName.values()];
  const tables = renderTables(results);
  process.stdout.write(`${tables}\n`);
  const checks = checkRows(results);
  for (const k of checks) {
    process.stdout.write(
      `check: ${k.apiProcesses} API process(es): predicted ${k.predicted.toFixed(0)}, measured ` +
        `${k.measured.toFixed(0)} creates/s, error ${(k.error * 100).toFixed(1)} %\n`,
    );
  }
  if (snapshot) {
    const kept = results.filter((r) => (INPUT_KEYS as readonly string[]).includes(r.name));
    writeFileSync(snapshot, `${JSON.stringify(kept, null, 2)}\n`);
    process.stderr.write(`capacity: kept ${kept.length} rows in ${snapshot}\n`);
  }
  if (write) {
    writeFileSync(write, withTables(readFileSync(write, 'utf8'), tables));
    process.stderr.write(`capacity: rewrote the tables of ${write}\n`);
  }
  let failed = false;
  if (check && generatedPart(readFileSync(check, 'utf8')) !== tables) {
    process.stderr.write(`capacity: ${check}'s tables are not this run's: --write ${check}\n`);
    failed = true;
  }
  for (const k of checks.filter((row) => Math.abs(row.error) > CHECK_TOLERANCE)) {
    process.stderr.write(
      `capacity: the check with ${k.apiProcesses} API process(es) misses by more than 25 %\n`,
    );
    failed = true;
  }
  return failed ? 1 : 0;
}

process.exitCode = main();
