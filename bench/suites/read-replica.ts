import { readdirSync } from 'node:fs';
import { createTestCore, insertPendingDebate, startStreamingPair, uniqueEmail } from '@verdict/core/testing';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

const READS = 400;
const WARMUP = 50;
const LIST = { page: 1, limit: 20, sortBy: 'createdAt', sortOrder: 'desc' } as const;

/** PG_BIN, or the newest PostgreSQL the Debian packages installed. */
const pgBin = () =>
  process.env.PG_BIN ??
  `/usr/lib/postgresql/${readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0]}/bin`;

/** Mean milliseconds of `fn`, one call at a time, after a warm-up. */
async function meanMs(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < READS; i++) await fn();
  return (performance.now() - start) / READS;
}

/**
 * The price of read routing on one machine: a debate list (GET /api/debates' read) on the primary alone,
 * routed to a streaming replica, and routed right after the caller's write (which the primary answers until
 * the replica replays it), plus a write's note. The primary and the standby are a pair of the suite's own
 * (startStreamingPair) on the same cores, so this shows the routing's round trips, not the relief a replica
 * on its own hardware brings.
 */
async function run({ log }: SuiteContext): Promise<BenchResult[]> {
  const pair = await startStreamingPair(pgBin());
  try {
    const plain = await createTestCore({ DATABASE_URL: pair.primaryUrl });
    const routed = await createTestCore({
      DATABASE_URL: pair.primaryUrl,
      DATABASE_SCHEMA: plain.schema,
      DATABASE_REPLICA_URL: pair.replicaUrl,
    });
    try {
      const user = (await plain.core.accounts.createUser({ email: uniqueEmail('bench'), name: 'Bench' })).id;
      for (let i = 0; i < 20; i++) {
        await insertPendingDebate(plain.core, {
          ownerId: user,
          question: `Question ${i}`,
          agents: 2,
          rounds: 1,
        });
      }
      const primaryOnly = await meanMs(() => plain.core.debates.list(user, LIST));
      const viaReplica = await meanMs(() => routed.core.debates.list(user, LIST));
      const note = await meanMs(() => routed.core.reads.noteWrite(user));
      const afterWrite = await meanMs(async () => {
        await routed.core.reads.noteWrite(user);
        await routed.core.debates.list(user, LIST);
      });
      const tallies = Object.fromEntries(routed.core.reads.tallies());
      log(`reads by reason: ${JSON.stringify(tallies)}`);
      const row = (metric: string, value: number, what: string): BenchResult => ({
        name: `read_replica.${metric}`,
        value: round(value, 2),
        unit: 'ms',
        better: 'lower',
        detail: `${what}; mean of ${READS} one at a time; reads by reason ${JSON.stringify(tallies)}`,
      });
      return [
        row('list_primary_only_ms', primaryOnly, 'a list of 20 debates, no replica configured'),
        row(
          'list_routed_ms',
          viaReplica,
          'the same list routed (position look-up on the primary, read on the replica)',
        ),
        row('note_write_ms', note, 'the upsert of a caller position after a mutation'),
        row('write_then_list_ms', afterWrite, 'a note and the list right after it'),
      ];
    } finally {
      await routed.core.close();
      await plain.cleanup();
    }
  } finally {
    await pair.stop();
  }
}

export const suite: Suite = {
  description:
    'read routing to a streaming replica: list latency on the primary alone, routed, right after a write',
  optIn: true,
  run,
};
