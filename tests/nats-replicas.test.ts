import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsBus } from '@verdict/core';
import { uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackNatsCluster, startLoopbackNatsCluster } from './support/nats-cluster.ts';

/**
 * NATS_STREAM_REPLICAS on a real three-server NATS cluster (loopback, JetStream on each): the streams and
 * the job consumer are made with the copies asked; a deployment that started with one copy is moved to
 * three in place, keeping its jobs; more copies than the cluster has servers refuse the start with the
 * operator's line.
 */
describe('stream replicas on a NATS cluster', () => {
  let cluster: LoopbackNatsCluster;
  beforeAll(async () => {
    cluster = await startLoopbackNatsCluster(3);
  }, 30_000);
  afterAll(async () => {
    await cluster?.close();
  });

  /** Each stream's and the consumer's copies: the leader and its replicas, as JetStream reports them. */
  const copies = async (prefix: string) => {
    const nc = await connect({ servers: cluster.urls });
    try {
      const jsm = await jetstreamManager(nc, { timeout: 2000 });
      const streamPrefix = prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
      const count = (info: { cluster?: { leader?: string; replicas?: unknown[] } }) =>
        (info.cluster?.leader ? 1 : 0) + (info.cluster?.replicas?.length ?? 0);
      return {
        events: count(await jsm.streams.info(`${streamPrefix}DEBATE_EVENTS`)),
        jobs: count(await jsm.streams.info(`${streamPrefix}DEBATE_JOBS`)),
        consumer: count(await jsm.consumers.info(`${streamPrefix}DEBATE_JOBS`, 'engine')),
      };
    } finally {
      await nc.close();
    }
  };

  it('moves a deployment made with one copy to three, keeping its queued jobs', async () => {
    const prefix = `${uniqueSchema('replicas')}.`;
    const single = await natsBus({ servers: cluster.urls, prefix });
    await single.jobs.enqueue({ debateId: 'kept-across-the-move', attempt: 1 });
    await single.close();
    expect(await copies(prefix)).toEqual({ events: 1, jobs: 1, consumer: 1 });

    const replicated = await natsBus({ servers: cluster.urls, prefix, streamReplicas: 3 });
    try {
      // JetStream reports the new copies as they catch up: within a few seconds all three are there.
      await expect
        .poll(() => copies(prefix), { timeout: 10_000 })
        .toEqual({ events: 3, jobs: 3, consumer: 3 });
      const pulled: string[] = [];
      const consumer = replicated.jobs.consume(1, async (handle) => {
        pulled.push(handle.job.debateId);
        await handle.ack();
      });
      await expect.poll(() => pulled, { timeout: 10_000 }).toEqual(['kept-across-the-move']);
      await consumer.stop();
    } finally {
      // The streams go with the cluster (a stream deleted the moment after it moved may wait out a timeout).
      await replicated.close();
    }
  }, 40_000);

  it('leaves the copies of existing streams as they are when the setting is not given', async () => {
    const prefix = `${uniqueSchema('unset')}.`;
    const replicated = await natsBus({ servers: cluster.urls, prefix, streamReplicas: 3 });
    await replicated.close();
    await expect.poll(() => copies(prefix), { timeout: 10_000 }).toEqual({ events: 3, jobs: 3, consumer: 3 });
    // A process started without NATS_STREAM_REPLICAS (an upgrade that does not name it) keeps an operator's count.
    const unset = await natsBus({ servers: cluster.urls, prefix });
    await unset.close();
    expect(await copies(prefix)).toEqual({ events: 3, jobs: 3, consumer: 3 });
  }, 30_000);

  it('refuses more copies than the cluster has servers, naming the setting and what it needs', async () => {
    const refusal = natsBus({ servers: cluster.urls, prefix: `${uniqueSchema('five')}.`, streamReplicas: 5 });
    await expect(refusal).rejects.toThrow(
      new RegExp(
        `^NATS_STREAM_REPLICAS=5 asks for 5 copies of each stream, but NATS cluster "${cluster.name}" at ` +
          '127\\.0\\.0\\.1:\\d+, 127\\.0\\.0\\.1:\\d+, 127\\.0\\.0\\.1:\\d+ cannot place them \\(JetStream: no ' +
          'suitable peers for placement\\): it needs at least 5 servers with JetStream up; start them, or set ' +
          'NATS_STREAM_REPLICAS=1 ',
      ),
    );
  }, 20_000);
});
