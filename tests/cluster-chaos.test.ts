import { describe, expect, it } from 'vitest';
import {
  type ChaosReport,
  chaosRunBoundMs,
  FAULT_KINDS,
  NATS_CLUSTER_FAULT_KINDS,
  runChaos,
  seeded,
} from '../infra/cluster/chaos.ts';
import { chaosSummary } from '../infra/cluster/chaos-summary.ts';
import { clusterBinaries } from './support/fault-tests.ts';

/**
 * The short chaos run (infra/cluster/chaos.ts): about a minute of faults drawn from a seed while debates
 * are created on two API processes and followed as streams, on three engine nodes, with a webhook receiving
 * their creation and completion and schedules made due; then no invariant may be violated. The seed differs on every run and is printed: `npm run chaos -- --seed S` replays its faults.
 */

describe('a chaos run', () => {
  it('draws the same faults from the same seed', () => {
    const draw = (seed: number) => {
      const random = seeded(seed);
      return Array.from({ length: 20 }, () => random.pick(FAULT_KINDS));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(new Set(draw(7).concat(draw(8), draw(9))).size).toBeGreaterThan(5);
  });

  it('on the NATS cluster, draws its three faults instead of the restart, and reports their time to progress', () => {
    expect(NATS_CLUSTER_FAULT_KINDS).not.toContain('nats-restart');
    expect(NATS_CLUSTER_FAULT_KINDS).toEqual(
      expect.arrayContaining(['nats-server-kill', 'nats-server-partition', 'nats-meta-leader-kill']),
    );
    const fault = (
      kind: ChaosReport['faults'][number]['kind'],
      recoveryMs: number,
      progressMs?: number | null,
    ) => ({
      kind,
      target: 'x',
      at: '',
      recoveryMs,
      ...(progressMs === undefined ? {} : { progressMs }),
    });
    const summary = chaosSummary({
      seed: 1,
      seconds: 60,
      faults: [
        fault('engine-kill', 900),
        fault('nats-server-kill', 800, 1200),
        fault('nats-server-kill', 700, 3400),
        fault('nats-server-kill', 600, 2000),
        fault('nats-meta-leader-kill', 500, null),
      ],
      accepted: 1,
      notAccepted: 0,
      madeUnanswered: 0,
      streams: 0,
      webhookDeliveries: 0,
      scheduledRuns: 0,
      providerRequests: 0,
      fencedWrites: 0,
      violations: [],
    });
    expect(summary).toContain('| nats-server-kill | 3 | 700 | 800 |');
    expect(summary).toContain(
      '| NATS cluster fault | count | median ms to progress while it held | max ms |',
    );
    expect(summary).toContain('| nats-server-kill | 3 | 2,000 | 3,400 |');
    expect(summary).toContain('| nats-meta-leader-kill | 1 | never | never |');
  });

  // The run ends within its bound whatever the faults do (a stalled debate is a violation reported at the
  // settle deadline, not a hang): the timeout leaves room for the cluster's start on top of it.
  const seconds = 70;
  it(
    'keeps every invariant through a minute of faults',
    async () => {
      const seed = Math.floor(Math.random() * 2 ** 31);
      console.log(`chaos seed ${seed}`);
      const report = await runChaos({
        seconds,
        seed,
        ...clusterBinaries(),
        log: (line) => console.log(`chaos: ${line}`),
      });
      expect(report.violations, `seed ${seed}`).toEqual([]);
      expect(report.faults.length).toBeGreaterThanOrEqual(3);
      expect(report.accepted).toBeGreaterThan(20);
      expect(report.streams).toBeGreaterThan(5);
      // The side work ran too: webhooks delivered, schedules fired, the provider asked for every turn.
      expect(report.webhookDeliveries).toBeGreaterThan(report.accepted);
      expect(report.scheduledRuns).toBeGreaterThanOrEqual(3);
      expect(report.providerRequests).toBeGreaterThan(report.accepted * 4);
      for (const fault of report.faults)
        expect(fault.recoveryMs, `${fault.kind} on ${fault.target}`).not.toBeNull();
    },
    chaosRunBoundMs(seconds) + 60_000,
  );
});
