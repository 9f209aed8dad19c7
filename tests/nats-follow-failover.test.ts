import { setTimeout as sleep } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DebateEvent } from '@verdict/contracts';
import { type NatsBus, natsBus } from '@verdict/core';
import { uniqueSchema } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackNatsCluster, startLoopbackNatsCluster } from './support/nats-cluster.ts';

const event = (debateId: string, seq: number): DebateEvent => ({
  debateId,
  attempt: 1,
  seq,
  at: new Date().toISOString(),
  type: 'agent.thinking',
  data: { agent: `A${seq}`, round: 1 },
});

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * A debate's events followed through a three-server NATS cluster (loopback) while the server the follower
 * is connected to, which also leads the events stream, is SIGKILLed: the follow moves with its client and
 * delivers every later event once, in order (the cluster chaos run found follows that stopped for good).
 */
describe('following a debate across a NATS server failure', () => {
  let cluster: LoopbackNatsCluster;
  const buses: NatsBus[] = [];
  beforeAll(async () => {
    cluster = await startLoopbackNatsCluster(3);
  }, 30_000);
  afterAll(async () => {
    for (const bus of buses) await bus.close().catch(() => {});
    await cluster?.close();
  });

  /** Steps the stream's leader down until it is `server` (JetStream elects among the others at random). */
  const leadStreamFrom = async (bus: NatsBus, stream: string, server: string) => {
    const jsm = await jetstreamManager(bus.connection, { timeout: 2000 });
    await expect
      .poll(
        async () => {
          const leader = (await jsm.streams.info(stream)).cluster?.leader;
          if (leader && leader !== server) {
            await bus.connection.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, undefined, {
              timeout: 2000,
            });
          }
          return leader;
        },
        { timeout: 15_000, interval: 300 },
      )
      .toBe(server);
  };

  const publishAgain = (bus: NatsBus, seq: number) =>
    // While the stream elects a new leader a publish is refused (no responders): the test publishes again, as
    // an engine does (the message id drops a copy the stream has).
    expect
      .poll(
        () =>
          bus.events.publish(event('d1', seq)).then(
            () => true,
            () => false,
          ),
        {
          timeout: 10_000,
          interval: 200,
        },
      )
      .toBe(true);

  /** The first bus waits for every server to have joined JetStream (the cluster is up once a leader is elected). */
  const firstBus = async (options: Parameters<typeof natsBus>[0]) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        return await natsBus(options);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(200);
      }
    }
  };

  it('delivers every event after its server is killed, once and in order; says so when it cannot go on', async () => {
    const prefix = `${uniqueSchema('follow')}.`;
    const stream = `${prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}DEBATE_EVENTS`;
    const publisher = await firstBus({ servers: cluster.urls, prefix, streamReplicas: 3 });
    buses.push(publisher);
    const follower = await natsBus({
      servers: cluster.urls,
      prefix,
      streamReplicas: 3,
      followHeartbeatMs: 300,
      followGiveUpMs: 8000,
    });
    buses.push(follower);
    const followed = follower.connection.info?.server_name ?? '';
    // The follower's server leads the stream (and holds its consumer): the kill moves the client, the
    // consumer and the stream's leader at once.
    await leadStreamFrom(publisher, stream, followed);

    const seen: number[] = [];
    let lost: unknown = null;
    const stop = await follower.events.follow(
      'd1',
      1,
      0,
      (e) => seen.push(e.seq),
      (error) => {
        lost = error;
      },
    );
    for (const seq of upTo(5)) await publisher.events.publish(event('d1', seq));
    await expect.poll(() => seen, { timeout: 5000 }).toEqual(upTo(5));

    await cluster.kill(followed);
    for (const seq of upTo(15).slice(5)) await publishAgain(publisher, seq);
    // Within the reconnect, the heartbeat check (2 × 300 ms) and a new leader's election.
    await expect.poll(() => seen, { timeout: 15_000, interval: 100 }).toEqual(upTo(15));
    expect(follower.connection.info?.server_name).not.toBe(followed);
    expect(lost).toBeNull();

    // A second server gone: JetStream has no quorum, no consumer can be made, and after followGiveUpMs the
    // follow says it ended rather than wait in silence.
    await cluster.kill(follower.connection.info?.server_name ?? '');
    await expect.poll(() => lost, { timeout: 20_000, interval: 200 }).not.toBeNull();
    expect(seen).toEqual(upTo(15));
    stop();
  }, 60_000);
});
