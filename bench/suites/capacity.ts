import { cpus } from 'node:os';
import { machineBusySeconds, processCpuSeconds } from '../lib/cpu.ts';
import { fireCreates } from '../lib/create-load.ts';
import {
  type DebatesApi,
  type Deployment,
  newDeployment,
  startDebatesApi,
  stopOrDrop,
} from '../lib/debates-servers.ts';
import { pgTransactionsCommitted } from '../lib/pg-transactions.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { describeServiceCpu, serviceCpuSeconds } from '../lib/service-cpu.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import type { BenchSettings, Suite, SuiteContext } from '../lib/suite.ts';

/**
 * The capacity model's check (docs/capacity.md, bench/capacity.ts): creates a second, many accounts, with
 * ONE and with TWO API processes on one schema and NATS prefix, the same total connections, the sizes
 * alternated (1 2 2 1 …) so a busy moment of the shared machine hits both alike. Each window also records
 * how many of the machine's cores other processes took (its busy time less the API processes', the benches'
 * PostgreSQL's and NATS's, and the load generator's), which the model subtracts from the cores it predicts
 * with. The model's per-create costs come from the debates suite, not from these windows.
 */

const SIZES = [1, 2] as const;
type Size = (typeof SIZES)[number];

type Window = {
  created: number;
  wallS: number;
  cpu: { api: number; postgres: number; nats: number; runner: number; others: number };
  non2xx: number;
  errors: number;
  /** PostgreSQL transactions committed in the window (the database's, whoever sent them), or null. */
  transactions: number | null;
};

const cpuSnapshot = (apis: DebatesApi[]) => {
  const self = process.cpuUsage();
  return {
    api: apis.reduce((sum, api) => sum + processCpuSeconds(api.pid), 0),
    ...serviceCpuSeconds(),
    runner: (self.user + self.system) / 1e6,
    machine: machineBusySeconds(),
  };
};

/** Creates on the first `size` APIs at once, the connections split evenly; one measured window. */
async function createsOn(apis: DebatesApi[], size: Size, settings: BenchSettings, tag: string) {
  const used = apis.slice(0, size);
  const perApi = Math.floor(settings.connections / size);
  const fire = (durationS: number, onCreated?: () => void) =>
    Promise.all(
      used.map((api, i) =>
        fireCreates({
          baseUrl: api.baseUrl,
          keys: api.keys.slice(0, perApi),
          durationS,
          tag: `${tag}-${i}`,
          ...(onCreated ? { onCreated } : {}),
        }),
      ),
    );
  if (settings.warmupS > 0) await fire(settings.warmupS);
  let created = 0;
  const xact0 = pgTransactionsCommitted(settings.databaseUrl);
  const a = cpuSnapshot(apis);
  const t0 = performance.now();
  const runs = await fire(settings.durationS, () => created++);
  const wallS = (performance.now() - t0) / 1000;
  const b = cpuSnapshot(apis);
  const xact1 = pgTransactionsCommitted(settings.databaseUrl);
  const ours = {
    api: b.api - a.api,
    postgres: b.postgres - a.postgres,
    nats: b.nats - a.nats,
    runner: b.runner - a.runner,
  };
  const busy = b.machine - a.machine;
  const others = Math.max(0, busy - ours.api - ours.postgres - ours.nats - ours.runner);
  return {
    created,
    wallS,
    cpu: { ...ours, others },
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
    transactions: xact0 === null || xact1 === null ? null : xact1 - xact0,
  } satisfies Window;
}

const describeWindow = (w: Window) =>
  `${w.created} creates in ${w.wallS.toFixed(2)} s (${(w.created / w.wallS).toFixed(0)}/s), CPU s: API ` +
  `${w.cpu.api.toFixed(2)}, PostgreSQL ${w.cpu.postgres.toFixed(2)}, NATS ${w.cpu.nats.toFixed(2)}, load ` +
  `generator ${w.cpu.runner.toFixed(2)}, other processes ${w.cpu.others.toFixed(2)}; PostgreSQL ` +
  `transactions ${w.transactions ?? 'unknown'}` +
  (w.non2xx || w.errors ? `; FAILURES: ${w.non2xx} non-2xx, ${w.errors} errors or timeouts` : '');

function rowsOf(size: Size, windows: Window[], settings: BenchSettings): BenchResult[] {
  const sum = (f: (w: Window) => number) => windows.reduce((total, w) => total + f(w), 0);
  const wall = sum((w) => w.wallS);
  const rps = sum((w) => w.created) / wall;
  const cores = cpus().length;
  const available = cores - sum((w) => w.cpu.others) / wall;
  const detail =
    `POST /api/debates on ${size} API process(es) (one schema, one NATS prefix, distributed mode, no engine), ` +
    `${settings.connections} connections in all split evenly, one account and key per connection, ` +
    `${windows.length} windows of ${settings.durationS} s after ${settings.warmupS} s warm-up each, alternated ` +
    `with the other size. rps = 201s ÷ wall over all windows. Cores available = ${cores} − the machine's busy ` +
    `time not spent by the API processes, PostgreSQL, NATS or the load generator (${describeServiceCpu()}), ÷ ` +
    `wall. Windows: ${windows.map(describeWindow).join(' | ')}`;
  const name = `capacity.creates_${size}_api`;
  const rows: BenchResult[] = [
    { name: `${name}.rps`, value: round(rps, 0), unit: 'req/s', better: 'higher', detail },
    { name: `${name}.cores_available`, value: round(available, 2), unit: 'cores', better: 'higher', detail },
  ];
  if (windows.every((w) => w.transactions !== null)) {
    rows.push({
      name: `${name}.pg_transactions_per_create`,
      value: round(
        sum((w) => w.transactions ?? 0) /
          Math.max(
            1,
            sum((w) => w.created),
          ),
        2,
      ),
      unit: 'transactions',
      better: 'lower',
      detail:
        'pg_stat_database.xact_commit of the database over the windows ÷ 201s: a create on this path sends ' +
        'single statements, each its own transaction, so this is its PostgreSQL round trips (other clients ' +
        `of the same database count too). ${detail}`,
    });
  }
  return rows;
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const d: Deployment = newDeployment(settings.databaseUrl, BENCH_NATS_URL);
  const apis: DebatesApi[] = [];
  const passes = Number(process.env.BENCH_CAPACITY_PASSES ?? 2);
  try {
    // One after the other: the first migrates the schema, the second finds it migrated.
    for (let i = 0; i < 2; i++) apis.push(await startDebatesApi(d, { users: settings.connections }));
    const windows = new Map<Size, Window[]>(SIZES.map((size) => [size, []]));
    for (let pass = 0; pass < passes; pass++) {
      const order = pass % 2 === 0 ? SIZES : [...SIZES].reverse();
      for (const size of order) {
        const w = await createsOn(apis, size, settings, `p${pass}s${size}`);
        log(`${size} API process(es): ${describeWindow(w)}`);
        windows.get(size)?.push(w);
      }
    }
    return SIZES.flatMap((size) => rowsOf(size, windows.get(size) ?? [], settings));
  } finally {
    // Each stop drops the schema and streams if still there; the later one finds them gone.
    for (const api of apis.reverse()) await stopOrDrop(api, d, 'capacity API');
  }
}

export const suite: Suite = {
  description: "creates a second on one and on two API processes: the capacity model's two-size check",
  run,
};
