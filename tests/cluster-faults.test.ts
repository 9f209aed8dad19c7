import { setTimeout as sleep } from 'node:timers/promises';
import { createTestCore, type TestCore } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../infra/cluster/cluster.ts';
import { type ApiClient, apiClient, expectBody, registerUser } from './support/api-client.ts';
import { runAdmin } from './support/processes.ts';

/**
 * Network faults on the test cluster (infra/cluster/): an engine node cut off from NATS while it can still
 * reach PostgreSQL, and an engine paused past its lease (a zombie) that wakes up after another node took its
 * debates. The debaters are the simulated model (the only stand-in: no provider is called). After each
 * fault every debate must complete exactly once, with a gap-free event log and one charge.
 */

const required = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm test (infra/test.sh sets it)`);
  return value;
};

const SETTINGS = {
  SIMULATED_FIRST_TOKEN_MS: '150',
  CONCURRENT_DEBATES: '50',
  ENGINE_LEASE_MS: '3000',
};

describe('the cluster under network faults', () => {
  let cluster: Cluster;
  let client: ApiClient;
  /** The cluster's database, read from the machine: what was written is the record the checks trust. */
  let db: TestCore;

  beforeAll(async () => {
    cluster = await startCluster({
      prefix: 'vcf',
      octet: 233,
      apis: 1,
      engines: 2,
      env: SETTINGS,
      pgBin: required('PG_BIN'),
      natsServerBin: required('NATS_SERVER_BIN'),
    });
    const baseUrl = cluster.apis[0]?.baseUrl ?? '';
    const user = await registerUser(baseUrl, 'faults');
    const admin = (...args: string[]) => runAdmin(args, { DATABASE_URL: cluster.databaseUrl });
    await admin('set-plan', '--email', user.email, '--plan', 'pro');
    await admin('grant-credits', '--email', user.email, '--amount', '500');
    await admin('set-rate-limit', '--email', user.email, '--per-minute', '100000');
    client = apiClient(baseUrl, { cookie: user.cookie });
    db = await createTestCore({ DATABASE_URL: cluster.databaseUrl, DATABASE_SCHEMA: 'public' });
  }, 180_000);
  afterAll(async () => {
    await db?.core.close();
    await cluster?.stop();
  });

  const createDebates = async (label: string, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await client.POST('/api/debates', {
        body: {
          question: `Should ${label} number ${i} go ahead?`,
          agentCount: 2,
          maxRounds: 2,
          skipCache: true,
        },
      });
      ids.push(expectBody(created, 201).debateId);
    }
    return ids;
  };

  /** Waits for every debate to finish, then checks each completed once, its events gap-free, one charge. */
  const expectCompletedOnce = async (ids: string[], withinMs: number) => {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const rows = await db.core.db.execute<{ status: string }>(
        'select status from debates where id in (?)',
        [ids],
      );
      if (rows.length === ids.length && rows.every((row) => row.status === 'completed')) break;
      if (Date.now() > deadline)
        throw new Error(`not all completed in ${withinMs} ms: ${JSON.stringify(rows)}`);
      await sleep(250);
    }
    for (const id of ids) {
      const events = await db.core.db.execute<{ seq: number; type: string }>(
        'select seq, type from debate_events where debate_id = ? order by seq',
        [id],
      );
      expect(
        events.map((row) => row.seq),
        `${id}: events numbered 1..n`,
      ).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((row) => row.type === 'debate.completed')).toHaveLength(1);
      expect(events.filter((row) => row.type === 'verdict')).toHaveLength(1);
      const charges = await db.core.db.execute(
        'select 1 from credit_ledger where debate_id = ? and delta < 0',
        [id],
      );
      expect(charges, `${id}: charged once`).toHaveLength(1);
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
    const zombie = cluster.engines[1] as Cluster['engines'][number];
    const zombieId = /"nodeId":"([^"]+)"/.exec(zombie.output())?.[1];
    expect(zombieId, 'the node logs its id as it starts').toBeTruthy();
    const heldBy = async (ids: string[]) =>
      db.core.db.execute<{ id: string; lease_owner: string | null; status: string }>(
        'select id, lease_owner, status from debates where id in (?)',
        [ids],
      );
    const ids = await createDebates('the zombie', 8);
    // Paused only once it holds running debates: a pause that held none would prove nothing.
    let held: string[] = [];
    const deadline = Date.now() + 20_000;
    while (held.length === 0 && Date.now() < deadline) {
      held = (await heldBy(ids))
        .filter((row) => row.lease_owner === zombieId && row.status === 'running')
        .map((row) => row.id);
      if (held.length === 0) await sleep(50);
    }
    expect(held.length, 'debates the paused node held').toBeGreaterThan(0);
    zombie.pause();
    try {
      // Past its lease (3 s): the other node takes each of them over (or they finish there) while it sleeps.
      const takenOver = Date.now() + 30_000;
      for (;;) {
        const rows = await heldBy(held);
        if (rows.every((row) => row.lease_owner !== zombieId || row.status === 'completed')) break;
        if (Date.now() > takenOver) throw new Error(`not taken over in 30 s: ${JSON.stringify(rows)}`);
        await sleep(250);
      }
    } finally {
      zombie.resume();
    }
    await expectCompletedOnce(ids, 90_000);
    // Awake, the zombie found its leases taken (the epoch fence refused its renewal) and let go.
    await expect
      .poll(() => zombie.output().includes('lease lost; leaving it to its new holder'), { timeout: 15_000 })
      .toBe(true);
  }, 150_000);
});
