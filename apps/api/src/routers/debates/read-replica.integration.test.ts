import type { CreatedDebate } from '@verdict/contracts';
import { eventually, type StreamingPair, startStreamingPair } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerUser, startServer, type TestUser } from '../../testing/http-harness.ts';

describe('read-your-writes on a read replica, across two API servers', () => {
  let pair: StreamingPair;
  /** Two API servers on one schema, both reading the replica: the writes go to `a`, the reads to `b`. */
  let a: Harness;
  let b: Harness;
  let author: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    pair = await startStreamingPair();
    const env = { DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl };
    a = await startServer({ env });
    b = await startServer({ env: { ...env, DATABASE_SCHEMA: a.schema } });
    [author, other] = [await registerUser(a), await registerUser(a)];
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await pair?.stop();
  });

  const listedBy = async (server: Harness, user: TestUser) => {
    const res = await server.request<{ debates: { id: string }[] }>('GET', '/api/debates', {
      cookie: user.cookie,
    });
    expect(res.status, res.text).toBe(200);
    return res.json.debates.map((debate) => debate.id);
  };
  const tally = (reason: string) => b.core.reads.tallies().get(reason as never) ?? 0;

  it("lists a debate the caller just created through another server, while the replica's replay is paused", async () => {
    const [row] = await a.core.db.execute<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
    await eventually(
      () => pair.onReplica(`select pg_last_wal_replay_lsn() >= '${row?.lsn}'::pg_lsn`),
      (answer) => answer === 't',
    );
    await pair.onReplica('select pg_wal_replay_pause()');
    try {
      const created = await a.request<CreatedDebate>('POST', '/api/debates', {
        cookie: author.cookie,
        body: { question: 'Should the team move to weekly releases?', skipCache: true },
      });
      expect(created.status, created.text).toBe(201);
      const fromPrimary = tally('caller_write');
      expect(await listedBy(b, author)).toEqual([created.json.debateId]);
      expect(tally('caller_write')).toBe(fromPrimary + 1);
      // A caller who wrote nothing since the pause is answered by the replica.
      const fromReplica = tally('replica');
      expect(await listedBy(b, other)).toEqual([]);
      expect(tally('replica')).toBe(fromReplica + 1);
    } finally {
      await pair.onReplica('select pg_wal_replay_resume()');
    }
  });
});
