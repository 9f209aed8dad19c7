import { setTimeout as sleep } from 'node:timers/promises';
import { createTestCore, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, SLOW_LINK, startCluster } from '../infra/cluster/cluster.ts';
import { leaseLostEndings } from '../infra/cluster/fenced-writes.ts';
import { serverFailureViolations } from '../infra/cluster/invariants.ts';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import {
  clusterBinaries,
  createDebatesThrough,
  expectCompletedOnce as expectCompletedOnceIn,
  FAST_RECOVERY_SETTINGS,
} from './support/fault-tests.ts';
import { runAdmin } from './support/processes.ts';

/**
 * Faults on the test cluster (infra/cluster/): two API processes and two engine nodes, each on a host of its
 * own. An engine cut off from NATS but not PostgreSQL, one cut off from PostgreSQL but not NATS, an engine
 * paused past its lease (a zombie) that wakes after another took its debates, an API process cut off from
 * NATS, an engine whose links to NATS and PostgreSQL are slow and lossy (its link shaper, link-shaper.ts),
 * NATS restarted, PostgreSQL killed and restarted — each while debates run. The debaters are the
 * simulated model (the only stand-in: no provider is called). After each fault every debate accepted must
 * complete exactly once, with a gap-free event log and one charge; at the end no process answered a 500
 * and PostgreSQL logged no deadlock.
 */

type Engine = Cluster['engines'][number];

/** An engine node's id, as it logs it on starting and as its debates' leases name it. */
const nodeIdOf = (engine: Engine) => /"nodeId":"([^"]+)"/.exec(engine.output())?.[1] ?? '';

describe('the cluster under network faults', () => {
  let cluster: Cluster;
  let client: ApiClient;
  let clientOf: (api: Cluster['apis'][number]) => ApiClient;
  /** The cluster's database, read from the machine: what was written is the record the checks trust. */
  let db: TestCore;

  beforeAll(async () => {
    cluster = await startCluster({
      apis: 2,
      engines: 2,
      env: FAST_RECOVERY_SETTINGS,
      ...clusterBinaries(),
    });
    const baseUrl = cluster.apis[0]?.baseUrl ?? '';
    const user = await registerUser(baseUrl, 'faults');
    const admin = (...args: string[]) => runAdmin(args, { DATABASE_URL: cluster.databaseUrl });
    await admin('set-plan', '--email', user.email, '--plan', 'pro');
    await admin('grant-credits', '--email', user.email, '--amount', '500');
    await admin('set-rate-limit', '--email', user.email, '--per-minute', '100000');
    client = apiClient(baseUrl, { cookie: user.cookie });
    clientOf = (api) => apiClient(api.baseUrl, { cookie: user.cookie });
    db = await createTestCore({ DATABASE_URL: cluster.databaseUrl, DATABASE_SCHEMA: 'public' });
  }, 180_000);
  afterAll(async () => {
    await db?.core.close();
    await cluster?.stop();
  });

  const createDebates = (label: string, count: number) => createDebatesThrough(client, label, count);

  const expectCompletedOnce = (ids: string[], withinMs: number) => expectCompletedOnceIn(db, ids, withinMs);

  const leases = (ids: string[]) =>
    db.core.db.execute<{ id: string; lease_owner: string | null; status: string }>(
      'select id, lease_owner, status from debates where id in (?)',
      [ids],
    );

  /**
   * The debates among `ids` that `engine` runs, once it runs any (a fault on a node that held none proves
   * nothing). Which node pulls a job is NATS's choice (the oldest waiting pull): while `engine` runs none, a
   * debate more is created each second and added to `ids`, so the checks after the fault cover it too.
   */
  const runningOn = async (engine: Engine, ids: string[]) => {
    const nodeId = nodeIdOf(engine);
    expect(nodeId, 'the node logs its id as it starts').not.toBe('');
    const deadline = Date.now() + 30_000;
    let more = Date.now() + 1000;
    for (;;) {
      const held = (await leases(ids))
        .filter((row) => row.lease_owner === nodeId && row.status === 'running')
        .map((row) => row.id);
      if (held.length > 0) return held;
      if (Date.now() > deadline) throw new Error(`${engine.name} ran none of ${ids.length} debates in 30 s`);
      if (Date.now() > more) {
        ids.push(...(await createDebates(`one more for ${engine.name}`, 1)));
        more = Date.now() + 1000;
      }
      await sleep(50);
    }
  };

  /** Waits until a debate of `ids` runs: a fault then lands mid-debate, not before any started. */
  const someRunning = async (ids: string[]) => {
    const deadline = Date.now() + 20_000;
    while (!(await leases(ids)).some((row) => row.status === 'running')) {
      if (Date.now() > deadline) throw new Error('none of the debates ran in 20 s');
      await sleep(50);
    }
  };

  /** Waits until no debate of `held` is `engine`'s any more (taken over, or finished) within `ms`. */
  const takenOverFrom = async (engine: Engine, held: string[], ms: number) => {
    const nodeId = nodeIdOf(engine);
    const deadline = Date.now() + ms;
    for (;;) {
      const rows = await leases(held);
      if (rows.every((row) => row.lease_owner !== nodeId || row.status === 'completed')) return;
      if (Date.now() > deadline) throw new Error(`not taken over in ${ms} ms: ${JSON.stringify(rows)}`);
      await sleep(250);
    }
  };

  it('finishes every debate on the other node while one engine is cut off from NATS but not PostgreSQL', async () => {
    const [cut, other] = cluster.engines as [Cluster['engines'][number], Cluster['engines'][number]];
    await cluster.network.partition(cut.host, cluster.nats.host);
    try {
      const ids = await createDebates('the cut node', 6);
      await expectCompletedOnce(ids, 60_000);
      expect(other.output()).toMatch(/engine node started/);
    } finally {
      await cluster.network.heal(cut.host, cluster.nats.host);
    }
  }, 120_000);

  it('finishes every debate once when a node is paused past its lease and wakes up after another took over', async () => {
    // The node the test before did not cut: the other one, healed, must take the debates over.
    const zombie = cluster.engines[1] as Engine;
    const ids = await createDebates('the zombie', 8);
    const held = await runningOn(zombie, ids);
    zombie.pause();
    try {
      // Past its lease (3 s): the other node takes each of them over (or they finish there) while it sleeps.
      await takenOverFrom(zombie, held, 30_000);
    } finally {
      zombie.resume();
    }
    await expectCompletedOnce(ids, 90_000);
    // Awake, the zombie found its leases taken (the epoch fence refused its renewal) and let go: its log says
    // so, and its metrics count each job it ended so.
    await expect
      .poll(() => zombie.output().includes('lease lost; leaving it and its job to its new holder'), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await leaseLostEndings(zombie.metricsUrl)).toBeGreaterThan(0);
  }, 150_000);

  it('finishes every debate of a node cut off from PostgreSQL but not NATS on the other node', async () => {
    const cut = cluster.engines[0] as Engine;
    const ids = await createDebates('the node without its database', 8);
    const held = await runningOn(cut, ids);
    await cluster.network.partition(cut.host, cluster.postgres.host);
    try {
      // It cannot renew its leases: past them (and its storage tolerance) the other node takes over.
      await takenOverFrom(cut, held, 40_000);
    } finally {
      await cluster.network.heal(cut.host, cluster.postgres.host);
    }
    await expectCompletedOnce(ids, 90_000);
  }, 150_000);

  it('answers every create of an API process cut off from NATS without a 500 or a hang, and runs what it accepted', async () => {
    const [cut, other] = cluster.apis as [Cluster['apis'][number], Cluster['apis'][number]];
    await cluster.network.partition(cut.host, cluster.nats.host);
    const accepted: string[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const created = await clientOf(cut).POST('/api/debates', {
          body: {
            question: `Should the cut API's debate ${i} run?`,
            agentCount: 2,
            maxRounds: 2,
            skipCache: true,
          },
          signal: AbortSignal.timeout(20_000),
        });
        // Accepted (its job is queued again by the reconciler if the bus did not take it) or refused as
        // unavailable: never a failure of the server.
        expect([201, 503], JSON.stringify(created.error ?? null)).toContain(created.response.status);
        if (created.data) accepted.push(created.data.debateId);
      }
      const elsewhere = await clientOf(other).POST('/api/debates', {
        body: {
          question: 'Should the other API still take debates?',
          agentCount: 2,
          maxRounds: 2,
          skipCache: true,
        },
      });
      accepted.push(expectBody(elsewhere, 201).debateId);
    } finally {
      await cluster.network.heal(cut.host, cluster.nats.host);
    }
    await expectCompletedOnce(accepted, 90_000);
  }, 150_000);

  it("finishes every debate once while an engine's links to NATS and PostgreSQL are slow and lossy", async () => {
    const slow = cluster.engines[0] as Engine;
    const ids = await createDebates('the slow node', 6);
    // It runs some of them as its links slow down: 200 ± 100 ms each way, 5 % loss, on both.
    await runningOn(slow, ids);
    await slow.shape('nats', SLOW_LINK);
    await slow.shape('postgres', SLOW_LINK);
    try {
      ids.push(...(await createDebates('the slow node, slowed', 4)));
      await expectCompletedOnce(ids, 120_000);
    } finally {
      await slow.shape('nats', null);
      await slow.shape('postgres', null);
    }
  }, 180_000);

  it('finishes every debate once across a restart of NATS', async () => {
    const ids = await createDebates('through a NATS restart', 6);
    await someRunning(ids);
    await cluster.nats.restart();
    await expectCompletedOnce(ids, 90_000);
  }, 150_000);

  it('finishes every debate once across a crash and restart of PostgreSQL', async () => {
    const ids = await createDebates('through a PostgreSQL crash', 6);
    await someRunning(ids);
    // kill -9 of the postmaster: the restart recovers from its write-ahead log.
    await cluster.postgres.restart();
    await expectCompletedOnce(ids, 120_000);
  }, 180_000);

  it('answered no request with a 500, and PostgreSQL logged no deadlock', () => {
    expect(serverFailureViolations(cluster)).toEqual([]);
  });
});
