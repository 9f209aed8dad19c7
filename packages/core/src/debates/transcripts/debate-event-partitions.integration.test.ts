import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/orm.ts';
import { createTestCore, insertStoredDebate, type TestCore, uniqueEmail } from '../../testing/index.ts';
import { createDebateEvents } from '../debate-events.ts';
import { resetForRetry } from '../debate-record.ts';
import { timeline } from '../events/timeline.ts';
import { maintainDebateEvents } from './maintain-debate-events.ts';

/** An event as the engine's writer stores it (engine/store/many-debate-writes.ts): keyed by its debate's creation. */
const writeEvent = (
  db: Database,
  debateId: string,
  attempt: number,
  seq: number,
  type: string,
  data: object,
) =>
  db.execute(
    `insert into debate_events (debate_id, attempt, seq, type, data, created_at, debate_created_at)
     select d.id, ?, ?, ?, ?::jsonb, now(), d.created_at from debates d where d.id = ?
     on conflict do nothing`,
    [attempt, seq, type, JSON.stringify(data), debateId],
  );

const claim = (agent: string, round: number) => ({
  agent,
  round,
  claimId: `a1-r${round}-${agent.toLowerCase()}`,
  content: `${agent} says so in round ${round}`,
});

/** The events each debate of these tests has: two arguments and the end. */
async function writeDebate(db: Database, debateId: string, attempt = 1) {
  await writeEvent(db, debateId, attempt, 1, 'argument', claim('Ada', 1));
  await writeEvent(db, debateId, attempt, 2, 'argument', claim('Bo', 1));
  await writeEvent(db, debateId, attempt, 3, 'complete', { verdict: 'yes' });
}

const partitionOf = async (db: Database, debateId: string) =>
  (
    await db.execute<{ p: string }>(
      `select distinct tableoid::regclass::text as p from debate_events where debate_id = ?`,
      [debateId],
    )
  ).map((row) => row.p.replace(/^.*\./, '').replaceAll('"', ''));

const at = (iso: string) => ({ now: () => Date.parse(iso) });

describe.each(['postgres', 'pglite'] as const)('debate_events partitioned by month on %s', (database) => {
  let test: TestCore;
  let db: Database;
  let ownerId: string;
  const ids: Record<string, string> = {};
  const reads = () => createDebateEvents({ db, bus: test.core.bus, onError: () => {} });

  beforeAll(async () => {
    test = await createTestCore({}, { database });
    db = test.core.db;
    ownerId = (await test.core.accounts.createUser({ email: uniqueEmail('parts'), name: 'Parts' })).id;
    await db.execute(`update users set plan = 'pro' where id = ?`, [ownerId]);
    const debate = (status: 'completed' | 'running' | 'failed', createdAt: string) =>
      insertStoredDebate(test.core, { ownerId, question: 'Q?', status, createdAt: new Date(createdAt) });
    ids.old = await debate('completed', '2025-01-10T00:00:00Z'); // before the migration's month: legacy
    ids.ended = await debate('completed', '2099-01-05T00:00:00Z');
    ids.running = await debate('running', '2099-01-20T00:00:00Z');
    ids.failed = await debate('failed', '2099-01-25T00:00:00Z');
    ids.beyond = await debate('completed', '2099-08-03T00:00:00Z');
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  it('is a partitioned table: the old table as its legacy partition, a DEFAULT one and months ahead', async () => {
    const [kind] = await db.execute<{ relkind: string }>(
      `select relkind from pg_class where oid = 'debate_events'::regclass`,
    );
    expect(kind?.relkind).toBe('p');
    const names = (
      await db.execute<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'debate_events'::regclass`,
      )
    ).map((row) => row.name);
    expect(names).toContain('debate_events_legacy');
    expect(names).toContain('debate_events_default');
    expect(names.filter((name) => /^debate_events_\d{6}$/.test(name))).toHaveLength(3);
  });

  it('keeps a re-written event a no-op, and a debate in one partition', async () => {
    for (const name of ['old', 'ended', 'running', 'failed']) {
      await writeDebate(db, ids[name] as string);
      await writeDebate(db, ids[name] as string);
    }
    const [count] = await db.execute<{ n: number }>(
      `select count(*)::int as n from debate_events where debate_id = ?`,
      [ids.ended],
    );
    expect(count?.n).toBe(3);
    expect(await partitionOf(db, ids.old as string)).toEqual(['debate_events_legacy']);
    // Months past those made ahead: the DEFAULT partition takes them until the job makes theirs.
    expect(await partitionOf(db, ids.ended as string)).toEqual(['debate_events_default']);
  });

  it('makes the months ahead, moving the DEFAULT partition rows of a month into its partition', async () => {
    const first = await maintainDebateEvents(db, at('2099-01-15T00:00:00Z'), {
      monthsAhead: 3,
      retentionDays: null,
    });
    expect(first.made).toEqual([
      'debate_events_209901',
      'debate_events_209902',
      'debate_events_209903',
      'debate_events_209904',
    ]);
    expect(await partitionOf(db, ids.ended as string)).toEqual(['debate_events_209901']);
    const again = await maintainDebateEvents(db, at('2099-01-15T00:00:00Z'), {
      monthsAhead: 3,
      retentionDays: null,
    });
    expect(again.made).toEqual([]);
    await writeDebate(db, ids.beyond as string);
    expect(await partitionOf(db, ids.beyond as string)).toEqual(['debate_events_default']);
    await maintainDebateEvents(db, at('2099-07-20T00:00:00Z'), { monthsAhead: 1, retentionDays: null });
    expect(await partitionOf(db, ids.beyond as string)).toEqual(['debate_events_209908']);
  });

  it('drops only partitions past retention whose debates all ended and were compacted', async () => {
    const before = await reads().storedAfter(ids.ended as string, 1, 0);
    const pass = await maintainDebateEvents(db, at('2099-03-15T00:00:00Z'), {
      monthsAhead: 0,
      retentionDays: 30,
    });
    // January holds a running debate: compacted around it, kept. The legacy partition's debates all ended.
    expect(pass.dropped).toContain('debate_events_legacy');
    expect(pass.dropped).not.toContain('debate_events_209901');
    expect(pass.compacted).toBe(3);
    expect(await partitionOf(db, ids.ended as string)).toEqual(['debate_events_209901']);
    await db.execute(`update debates set status = 'completed' where id = ?`, [ids.running]);
    const next = await maintainDebateEvents(db, at('2099-03-15T00:00:00Z'), {
      monthsAhead: 0,
      retentionDays: 30,
    });
    expect(next.dropped).toEqual(['debate_events_209901']);
    expect(await partitionOf(db, ids.ended as string)).toEqual([]);
    expect(await reads().storedAfter(ids.ended as string, 1, 0)).toEqual(before);
  });

  it('reads a dropped debate from its transcript: replay, last event, timeline, argument graph, votes, share page', async () => {
    for (const name of ['old', 'ended']) {
      const id = ids[name] as string;
      expect((await reads().storedAfter(id, 1, 1)).map((e) => e.seq)).toEqual([2, 3]);
      expect(await reads().lastStored(id, 1)).toEqual({ seq: 3, type: 'complete' });
      const timed = await timeline({ db })(id, 1);
      expect(timed.map((e) => [e.seq, e.type])).toEqual([
        [1, 'argument'],
        [2, 'argument'],
        [3, 'complete'],
      ]);
      expect(Number.isNaN(Date.parse(timed[0]?.at ?? ''))).toBe(false);
      const graph = await test.core.argumentGraphs.read(ownerId, id);
      expect(graph.claims.map((c) => c.claimId).sort()).toEqual(['a1-r1-ada', 'a1-r1-bo']);
      // A vote's claim is looked up in the events too.
      expect((await test.core.argumentVotes.cast(ownerId, id, 'a1-r1-ada', 'agree')).agree).toBe(1);
      await expect(test.core.argumentVotes.cast(ownerId, id, 'a1-r9-none', 'agree')).rejects.toThrow(/Claim/);
      const { token } = await test.core.sharing.share(ownerId, id);
      const shared = await test.core.sharing.read(token, false);
      expect(shared.events.map((e) => e.type)).toEqual(['argument', 'argument', 'complete']);
    }
  });

  it('lets a debate of a dropped month be retried: its new attempt is written to the DEFAULT partition', async () => {
    const id = ids.failed as string;
    const attempt = await db.em().transactional((em) => resetForRetry(em, id, 'user_credits'));
    expect(await reads().storedAfter(id, 1, 0)).toEqual([]);
    await writeDebate(db, id, attempt);
    expect(await partitionOf(db, id)).toEqual(['debate_events_default']);
    expect((await reads().storedAfter(id, attempt, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});
