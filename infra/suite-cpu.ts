import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';

/**
 * Where a test run's CPU goes, by kind of process (BENCHMARKS.md, "The test suite's time"):
 * `node infra/suite-cpu.ts <folder> <out>` samples /proc twice a second, keeps each process's CPU time as
 * last seen, and on SIGTERM writes the seconds of each kind to `out`. Only processes working in `folder`
 * (their cwd or command line under it) count: run the suite from a clone in `folder` with TMPDIR under it
 * too, so its PostgreSQL and NATS count. A process that lives less than half a second is missed, and one
 * is counted up to its last sample: the figures are a floor.
 */
const [folder = '', out = ''] = process.argv.slice(2);
if (!folder || !out) {
  console.error('usage: node infra/suite-cpu.ts <folder> <out>');
  process.exit(2);
}
const TICKS_PER_SECOND = 100;
type Seen = { command: string; cpuSeconds: number; counted: boolean };
const seen = new Map<string, Seen>();

const KINDS: [RegExp, string][] = [
  [/chrom/, 'chromium'],
  [/postgres|postmaster/, 'postgres'],
  [/nats-server/, 'nats-server'],
  [/vitest/, 'vitest (workers: test code)'],
  [/admin\.ts/, 'operator commands (admin.ts)'],
  [/apps\/engine\/src\/main\.ts/, 'engine processes'],
  [/apps\/api\/src\/(main|start)\.ts/, 'API processes'],
];
const kindOf = (command: string) => KINDS.find(([pattern]) => pattern.test(command))?.[1] ?? 'other';

function sample() {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const key = `${pid}:${fields[19]}`; // pid and start time: a reused pid is another process
      let entry = seen.get(key);
      if (!entry) {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        entry = { command, cpuSeconds: 0, counted: cwd.startsWith(folder) || command.includes(folder) };
        seen.set(key, entry);
      }
      entry.cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
}

const timer = setInterval(sample, 500);
process.on('SIGTERM', () => {
  clearInterval(timer);
  const byKind = new Map<string, number>();
  for (const entry of seen.values()) {
    if (entry.counted)
      byKind.set(kindOf(entry.command), (byKind.get(kindOf(entry.command)) ?? 0) + entry.cpuSeconds);
  }
  const rows = [...byKind].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
  const lines = rows.map(([kind, seconds]) => `${seconds.toFixed(1).padStart(8)} s  ${kind}`);
  writeFileSync(out, `${lines.join('\n')}\n${total.toFixed(1).padStart(8)} s  in all\n`);
  process.exit(0);
});
