import { jetstreamManager } from '@nats-io/jetstream';
import type { Database, NatsBus } from '@verdict/core';
import { insertPendingDebate } from '@verdict/core/testing';

/** Helpers of bench/suites/scale.ts: many debate rows at once, queue readiness, percentiles, machine CPU. */

export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type DebateShape = { agents: number; rounds: number };

/**
 * Inserts `count` pending debates of `ownerId` (mode fast, user credits) without queueing them: one through
 * insertPendingDebate (its job caught here), the rest copied
 * from that row in one INSERT … SELECT over whatever columns the table has, so thousands take well under
 * a second. Returns their ids; queue them with `enqueueAll` when the measurement starts.
 */
export async function insertDebates(
  db: Database,
  ownerId: string,
  count: number,
  shape: DebateShape,
  question = 'Should we move the billing service to the new region this quarter?',
): Promise<string[]> {
  if (count <= 0) return [];
  const notQueued = {
    enqueue: async () => {},
    consume: () => {
      throw new Error('not a consumer');
    },
    waiting: async () => 0,
  };
  const first = await insertPendingDebate(
    { db, bus: { jobs: notQueued } },
    {
      ownerId,
      question,
      agents: shape.agents,
      rounds: shape.rounds,
    },
  );
  if (count === 1) return [first.id];
  const columns = (
    await db.execute<{ column_name: string }>(
      `select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = 'debates' and column_name <> 'id'
        order by ordinal_position`,
    )
  ).map((c) => `"${c.column_name}"`);
  const list = columns.join(', ');
  const copies = await db.execute<{ id: string }>(
    `insert into debates (id, ${list})
     select gen_random_uuid(), ${columns.map((c) => `d.${c}`).join(', ')}
       from debates d, generate_series(1, ?) as g where d.id = ?
     returning id`,
    [count - 1, first.id],
  );
  return [first.id, ...copies.map((row) => row.id)];
}

/** Publishes the first attempt's job of every debate (JetStream acks each). */
export async function enqueueAll(bus: NatsBus, ids: string[], concurrency = 256): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      await bus.jobs.enqueue({ debateId: id, attempt: 1 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
}

/** A PostgreSQL array literal of uuids, for `= any(?::uuid[])`. */
export const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Pull requests waiting on the jobs consumer of `prefix`: the slots of every node ready for work. */
export async function pullingSlots(bus: NatsBus, prefix: string): Promise<number> {
  const jsm = await jetstreamManager(bus.connection);
  const stream = `${prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_JOBS`;
  return (await jsm.consumers.info(stream, 'engine')).num_waiting;
}

export async function waitForPulling(bus: NatsBus, prefix: string, want: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pulling = await pullingSlots(bus, prefix);
    if (pulling >= want) return pulling;
    if (Date.now() > deadline) throw new Error(`only ${pulling} of ${want} slots pulling`);
    await sleep(50);
  }
}

/** JetStream consumers on the events stream of `prefix` (the API holds one per open SSE stream). */
export async function eventConsumers(bus: NatsBus, prefix: string): Promise<number> {
  const jsm = await jetstreamManager(bus.connection);
  const stream = `${prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_EVENTS`;
  return (await jsm.streams.info(stream)).state.consumer_count;
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export const ascending = (values: Iterable<number>) => Float64Array.from(values).sort();
