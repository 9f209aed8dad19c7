import { parseArgs } from 'node:util';
import { runChaos } from './chaos.ts';
import { chaosSummary } from './chaos-summary.ts';

/**
 * `npm run chaos -- --minutes 30 [--seed 1234] [--nats-cluster]`: a chaos run on the test cluster (chaos.ts),
 * with `--nats-cluster` on a three-server NATS cluster and its faults; its faults drawn from the seed (a random one, printed, when none is given: the same seed replays the same faults). Prints
 * each fault as it happens, then the report as JSON and as BENCHMARKS.md's tables; exits 1 on any invariant
 * violation.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    seed: { type: 'string' },
    'nats-cluster': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 240) {
  console.error('--minutes: a number of minutes, up to 240');
  process.exit(2);
}
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const pgBin = process.env.PG_BIN;
const natsServerBin = process.env.NATS_SERVER_BIN;
if (!pgBin || !natsServerBin) {
  console.error(
    'PG_BIN and NATS_SERVER_BIN must be set: run it as npm run chaos (infra/chaos.sh finds them)',
  );
  process.exit(2);
}
// The first Ctrl-C (or SIGTERM) ends the run at the next fault and tears the cluster down: its processes and
// namespaces would otherwise outlive this one. A second one exits at once, leaving them.
const interrupted = new AbortController();
const interrupt = () => {
  if (interrupted.signal.aborted) process.exit(130);
  console.log('chaos: interrupted; tearing the cluster down after the fault in hand (again to quit now)');
  interrupted.abort();
};
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);
console.log(
  `chaos: ${minutes} min, seed ${seed}${values['nats-cluster'] ? ', NATS as a three-server cluster' : ''}`,
);
const report = await runChaos({
  seconds: Math.round(minutes * 60),
  seed,
  pgBin,
  natsServerBin,
  natsServers: values['nats-cluster'] ? 3 : 1,
  log: (line) => console.log(`chaos: ${line}`),
  signal: interrupted.signal,
}).catch((error: unknown) => {
  if (!interrupted.signal.aborted) throw error;
  console.log('chaos: interrupted; the cluster is torn down, nothing was checked');
  process.exit(130);
});
console.log(JSON.stringify(report, null, 2));
console.log(`\n${chaosSummary(report)}`);
process.exit(report.violations.length === 0 ? 0 : 1);
