import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebateListQuery } from '../debates/list-debates.ts';
import {
  createTestCore,
  eventually,
  insertPendingDebate,
  type StreamingPair,
  startStreamingPair,
  startTcpProxy,
  type TcpProxy,
  type TestCore,
  uniqueEmail,
} from '../testing/index.ts';

import type { ReadReason } from './read-routing.ts';

const NEWEST_FIRST: DebateListQuery = { page: 1, limit: 50, sortBy: 'createdAt', sortOrder: 'desc' };

describe('reads on a streaming replica', () => {
  let pair: StreamingPair;
  /** In front of the standby: cutting it is the replica going down for the cores. */
  let proxy: TcpProxy;
  /** Two "API processes" on one schema: `writer` takes the writes, `reader` serves the reads. */
  let writer: TestCore;
  let reader: TestCore;
  /** How far the reader's clock runs ahead of the wall clock (the lag bound's test moves it). */
  let skew = 0;

  beforeAll(async () => {
    pair = await startStreamingPair();
    const replica = new URL(pair.replicaUrl);
    proxy = await startTcpProxy({ host: replica.hostname, port: Number(replica.port) });
    replica.port = String(proxy.port);
    const env = { DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: replica.toString() };
    writer = await createTestCore(env);
    reader = await createTestCore(
      { ...env, DATABASE_SCHEMA: writer.schema, DATABASE_REPLICA_MAX_LAG_MS: '5000' },
      { clock: { now: () => Date.now() + skew } },
    );
  });
  afterAll(async () => {
    await reader?.core.close();
    await writer?.cleanup();
    await proxy?.close();
    await pair?.stop();
  });

  const newUser = async () =>
    (await writer.core.accounts.createUser({ email: uniqueEmail('replica'), name: 'Replica' })).id;
  const newDebate = (ownerId: string, question: string) =>
    insertPendingDebate(writer.core, { ownerId, question, agents: 2, rounds: 1 }).then((d) => d.id);
  const listed = async (userId: string) =>
    (await reader.core.debates.list(userId, NEWEST_FIRST)).debates.map((debate) => debate.id);
  /** The reads `reader` routed for `reason` so far. */
  const tally = (reason: ReadReason) => reader.core.reads.tallies().get(reason) ?? 0;
  /** Waits until the standby has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const [row] = await writer.core.db.execute<{ lsn: string }>(
      'select pg_current_wal_insert_lsn()::text as lsn',
    );
    await eventually(
      () => pair.onReplica(`select pg_last_wal_replay_lsn() >= '${row?.lsn}'::pg_lsn`),
      (answer) => answer === 't',
    );
  };
  const pauseReplay = () => pair.onReplica('select pg_wal_replay_pause()');
  const resumeReplay = () => pair.onReplica('select pg_wal_replay_resume()');

  it("serves reads from the replica, and a caller's own write from the primary until the replica replays it", async () => {
    const [author, other] = [await newUser(), await newUser()];
    const before = await newDebate(author, 'Written before the pause');
    const othersDebate = await newDebate(other, 'Another caller');
    await caughtUp();
    await pauseReplay();
    try {
      const after = await newDebate(author, 'Written after the pause');
      // Not yet noted as the author's write: the paused replica answers, without it. Proof the replica serves.
      const servedByReplica = tally('replica');
      expect(await listed(author)).toEqual([before]);
      expect(tally('replica')).toBe(servedByReplica + 1);

      // What the API does after the author's mutation, on the writer's process; the reader sees it.
      await writer.core.reads.noteWrite(author);
      const forCallerWrite = tally('caller_write');
      expect(await listed(author)).toEqual([after, before]);
      expect(tally('caller_write')).toBe(forCallerWrite + 1);

      // Another caller, who wrote nothing since, still reads the (paused) replica.
      expect(await listed(other)).toEqual([othersDebate]);
      expect(tally('replica')).toBe(servedByReplica + 2);
    } finally {
      await resumeReplay();
    }
    // Replayed: the author is back on the replica, which now has the write.
    const servedByReplica = tally('replica');
    await eventually(
      () => listed(author),
      (ids) => ids.length === 2 && tally('replica') > servedByReplica,
    );
  });

  it('reads the primary while the replica lags past DATABASE_REPLICA_MAX_LAG_MS, the replica again once it catches up', async () => {
    const user = await newUser();
    await caughtUp();
    await pauseReplay();
    try {
      await newDebate(await newUser(), 'Moves the primary past the paused replica');
      // The reader samples the primary ahead of the replica now, then 6 s pass by its clock.
      await listed(user);
      skew += 6_000;
      const lagging = tally('lagging');
      expect(await listed(user)).toEqual([]);
      expect(tally('lagging')).toBe(lagging + 1);
    } finally {
      await resumeReplay();
    }
    await caughtUp();
    const servedByReplica = tally('replica');
    await listed(user);
    expect(tally('replica')).toBe(servedByReplica + 1);
  });

  it('falls back to the primary, without an error, while the replica is down, and returns to it after', async () => {
    const user = await newUser();
    const id = await newDebate(user, 'Read while the replica is down');
    await caughtUp();
    await proxy.cut();
    try {
      const down = tally('down') + tally('replica_failed');
      expect(await listed(user)).toEqual([id]);
      expect(await listed(user)).toEqual([id]);
      expect(tally('down') + tally('replica_failed')).toBe(down + 2);
    } finally {
      await proxy.restore();
    }
    const servedByReplica = tally('replica');
    await eventually(
      () => listed(user),
      (ids) => ids[0] === id && tally('replica') > servedByReplica,
    );
  });

  it('routes search and analytics too, which answer from the replica', async () => {
    const user = await newUser();
    const id = await newDebate(user, 'Should the office move to Lisbon?');
    await caughtUp();
    const servedByReplica = tally('replica');
    const found = await reader.core.search.search(user, {
      q: 'lisbon',
      type: 'debates',
      sort: 'relevance',
      page: 1,
      limit: 10,
    });
    expect(found.results.map((r) => r.id)).toEqual([id]);
    expect(tally('replica')).toBe(servedByReplica + 1);
    const analytics = await reader.core.debates.analytics(user, id);
    expect(analytics).toMatchObject({ debateId: id, agents: [], averages: { debates: 0 } });
    expect(tally('replica')).toBe(servedByReplica + 2);
  });

  it('refuses to start when DATABASE_REPLICA_URL names a server that is not a standby', async () => {
    await expect(
      createTestCore({
        DATABASE_URL: pair.primaryUrl,
        DATABASE_SCHEMA: writer.schema,
        DATABASE_REPLICA_URL: pair.primaryUrl,
      }),
    ).rejects.toThrow(/DATABASE_REPLICA_URL=.* is not a standby/);
  });
});
