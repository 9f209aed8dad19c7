import { describe, expect, it } from 'vitest';
import { chaosRunBoundMs, FAULT_KINDS, runChaos, seeded } from '../infra/cluster/chaos.ts';

/**
 * The short chaos run (infra/cluster/chaos.ts): about a minute of faults drawn from a seed while debates
 * are created on two API processes and followed as streams, on three engine nodes, with a webhook receiving
 * their creation and completion and schedules made due; then no invariant may be violated. The seed differs on every run and is printed: `npm run chaos -- --seed S` replays its faults.
 */
const required = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm test (infra/test.sh sets it)`);
  return value;
};

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
        pgBin: required('PG_BIN'),
        natsServerBin: required('NATS_SERVER_BIN'),
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
