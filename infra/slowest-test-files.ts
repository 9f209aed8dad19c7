/**
 * Prints the test files that took longest in the last run (test-results/vitest.json, written by the JSON
 * reporter vitest.config.ts adds), so a suite that grows slower shows in CI's log. `npm test` runs it last.
 *
 *   node infra/slowest-test-files.ts [count]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

type FileResult = { name: string; startTime: number; endTime: number; status: string };

const count = Number(process.argv[2] ?? 15);
let results: FileResult[];
try {
  results = (JSON.parse(readFileSync('test-results/vitest.json', 'utf8')) as { testResults: FileResult[] })
    .testResults;
} catch {
  process.exit(0); // no report: vitest stopped before writing one, and said why
}
const seconds = (file: FileResult) => (file.endTime - file.startTime) / 1000;
const slowest = [...results].sort((a, b) => seconds(b) - seconds(a)).slice(0, count);
const total = results.reduce((sum, file) => sum + seconds(file), 0);
// How many ran at once on average, from the run's span: the suite's time is its files' over this.
const span =
  (Math.max(...results.map((f) => f.endTime)) - Math.min(...results.map((f) => f.startTime))) / 1000;
console.log(
  `\nslowest test files (of ${results.length}, ${total.toFixed(0)} s in all over ${span.toFixed(0)} s: ` +
    `${(total / span).toFixed(1)} at a time on average):`,
);
for (const file of slowest) {
  console.log(`${seconds(file).toFixed(1).padStart(8)} s  ${relative(process.cwd(), file.name)}`);
}
