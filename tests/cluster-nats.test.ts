import { setTimeout as sleep } from 'node:timers/promises';
import { createTestCore, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, type ClusterProcess, startCluster } from '../infra/cluster/cluster.ts';
import { serverFailureViolations } from '../infra/cluster/invariants.ts';
import { beginNatsFault, type NatsFaultKind } from '../infra/cluster/nats-faults.ts';
import { NATS_PORTS } from '../infra/cluster/nats-servers.ts';
import { createDebate, recoveryAfter } from '../infra/cluster/recovery.ts';
import { type ApiClient, apiClient, registerUser } from './support/api-client.ts';
import {
  clusterBinaries,
  createDebatesThrough,
  expectCompletedOnce as expectCompletedOnceIn,
  FAST_RECOVERY_SETTINGS,
} from './support/fault-tests.ts';
import { runAdmin } from './support/processes.ts';

/**
 * The bus as a three-server NATS cluster (infra/cluster/, `natsServers: 3`): every JetStream stream and the
 * job consumer kept on all three (NATS_STREAM_REPLICAS=3), every node's NATS_URL listing the three through
 * its link shaper. While debates run: one server killed -9, one server cut off from the other two, the
 * JetStream meta leader killed -9. Each time a debate created at the fault must complete while it lasts
 * (the two others carry on: that time is printed, per fault), and after it every debate accepted completed
 * once, with a gap-free event log and one charge; at the end no request was answered with a 500 and no
 * debate stalled.
 */

/** A server's client connections, from its monitor: the busiest is the one whose loss moves the most. */
async function clientConnections(server: ClusterProcess): Promise<number> {
  const connz = await fetch(`http://${server.host.ip}:${NATS_PORTS.monitor}/connz`, {
    signal: AbortSignal.timeout(2000),
  })
    .then((res) => res.json() as Promise<{ num_connections?: number }>)
    .catch(() => null);
  return connz?.num_connections ?? 0;
}

type StreamDetail = { name: string; config?: { num_replicas?: number }; cluster?: { replicas?: unknown[] } };

describe('the cluster on a three-server NATS cluster', () => {
  let cluster: Cluster;
  let client: ApiClient;
  let cookie: string;
  let db: TestCore;
  /** Ms from each fault until a debate created then completed. */
  const progress: Partial<Record<NatsFaultKind, number | null>> = {};

  beforeAll(async () => {
    cluster = await startCluster({
      apis: 1,
      engines: 2,
      natsServers: 3,
      env: FAST_RECOVERY_SETTINGS,
      ...clusterBinaries(),
    });
    const baseUrl = cluster.apis[0]?.baseUrl ?? '';
    const user = await registerUser(baseUrl, 'natscluster');
    const admin = (...args: string[]) => runAdmin(args, { DATABASE_URL: cluster.databaseUrl });
    await admin('set-plan', '--email', user.email, '--plan', 'pro');
    await admin('grant-credits', '--email', user.email, '--amount', '500');
    await admin('set-rate-limit', '--email', user.email, '--per-minute', '100000');
    cookie = user.cookie;
    client = apiClient(baseUrl, { cookie });
    db = await createTestCore({ DATABASE_URL: cluster.databaseUrl, DATABASE_SCHEMA: 'public' });
  }, 180_000);
  afterAll(async () => {
    console.log(`time from each NATS fault to progress (ms): ${JSON.stringify(progress)}`);
    await db?.core.close();
    await cluster?.stop();
  });

  const createDebates = (label: string, count: number) => createDebatesThrough(client, label, count);

  const expectCompletedOnce = (ids: string[], withinMs: number) => expectCompletedOnceIn(db, ids, withinMs);

  const someRunning = async (ids: string[]) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await db.core.db.execute<{ status: string }>(
        'select status from debates where id in (?)',
        [ids],
      );
      if (rows.some((row) => row.status === 'running')) return;
      if (Date.now() > deadline) throw new Error('none of the debates ran in 20 s');
      await sleep(50);
    }
  };

  /** The server with the most client connections now. */
  const busiest = async () => {
    const counts = await Promise.all(cluster.natsServers.map(clientConnections));
    return cluster.natsServers[counts.indexOf(Math.max(...counts))] as ClusterProcess;
  };

  /**
   * Debates running, then the fault; a debate created at once (on whichever API answers) must complete while
   * it lasts, and one more is asked of each API process during it (each accepted one must complete too); then it is mended
   * and every debate accepted must have completed once.
   */
  const throughFault = (kind: NatsFaultKind) =>
    faultChecked(kind).catch((error: unknown) => {
      // What the servers and nodes said last: the failure's context, before the cluster is torn down.
      for (const process of [...cluster.natsServers, ...cluster.engines, ...cluster.apis]) {
        console.log(`--- ${process.name}\n${process.output().slice(-3000)}`);
      }
      throw error;
    });

  const faultChecked = async (kind: NatsFaultKind) => {
    const ids = await createDebates(kind, 4);
    await someRunning(ids);
    const target = await busiest();
    const startedAt = Date.now();
    const fault = await beginNatsFault(cluster, kind, () => target);
    try {
      progress[kind] = await recoveryAfter(cluster, cookie, startedAt);
      for (const api of cluster.apis) {
        const created = await createDebate(api.baseUrl, cookie, `Should ${kind} during the fault go ahead?`);
        if (created.id) ids.push(created.id);
      }
    } finally {
      await fault.end();
    }
    console.log(`${kind} on ${fault.target}: progress after ${progress[kind]} ms`);
    expect(progress[kind], `${kind}: no debate created at the fault completed in 60 s`).not.toBeNull();
    await expectCompletedOnce(ids, 60_000);
  };

  it('keeps each stream on all three servers', async () => {
    const jsz = (await fetch(
      `http://${cluster.nats.host.ip}:${NATS_PORTS.monitor}/jsz?accounts=true&streams=true&config=true`,
    ).then((res) => res.json())) as { account_details?: { stream_detail?: StreamDetail[] }[] };
    const streams = (jsz.account_details ?? []).flatMap((account) => account.stream_detail ?? []);
    expect(streams.map((stream) => stream.name).sort()).toEqual(['DEBATE_EVENTS', 'DEBATE_JOBS']);
    for (const stream of streams) {
      expect(stream.config?.num_replicas, stream.name).toBe(3);
      expect(stream.cluster?.replicas?.length, stream.name).toBe(2);
    }
  });

  it('carries on while one NATS server is killed -9, and across its restart', async () => {
    await throughFault('nats-server-kill');
  }, 120_000);

  it('carries on while one NATS server is cut off from the other two, and after it heals', async () => {
    await throughFault('nats-server-partition');
  }, 120_000);

  it('carries on while the JetStream meta leader is killed -9, and across its restart', async () => {
    await throughFault('nats-meta-leader-kill');
  }, 120_000);

  it('answered no request with a 500, and no debate stalled', () => {
    expect(serverFailureViolations(cluster)).toEqual([]);
  });
});
