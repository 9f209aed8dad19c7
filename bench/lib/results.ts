import { writeFile } from 'node:fs/promises';

/** One figure of a run. `name` is stable from run to run so results can be compared over time. */
export type BenchResult = {
  name: string;
  value: number;
  unit: string;
  better: 'higher' | 'lower';
  /** How the figure was obtained (load shape, request counts, errors): enough to judge it. */
  detail: string;
};

/** Rounds to a precision that keeps the JSON readable without hiding differences that matter. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function formatTable(results: BenchResult[]): string {
  const rows = results.map((r) => [r.name, formatValue(r.value), r.unit, r.better === 'higher' ? '↑' : '↓']);
  const header = ['name', 'value', 'unit', 'better'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function formatValue(value: number): string {
  if (Number.isInteger(value) || Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(Math.abs(value) < 1 ? 3 : 2);
}

export async function writeResults(path: string, results: BenchResult[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
