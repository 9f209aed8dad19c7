import type { DebateEvent } from '@verdict/contracts';
import type { Core } from '@verdict/core';
import { eventually, insertPendingDebate } from '@verdict/core/testing';
import {
  debaterTurnOf,
  type FakeLlmServer,
  type FakeReply,
  type FakeRequest,
  judgeVerdictJson,
} from '@verdict/engine/testing';
import { expect } from 'vitest';

/**
 * The fake provider's script for fault runs: each debater answer takes `minMs`..`maxMs` (so a fault lands
 * mid-debate, with turns in flight), the judge answers a valid verdict at once.
 */
export const slowDebaters =
  (minMs: number, maxMs: number) =>
  async (request: FakeRequest): Promise<FakeReply> => {
    if (!debaterTurnOf(request)) return { text: judgeVerdictJson() };
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * (maxMs - minMs)));
    return { text: `A concrete point, answer ${request.index}.` };
  };

export type DebateShape = { agents: number; rounds: number };

/** The seats of a three-agent panel (engine/panel.ts). */
export const PANEL_OF_3 = ['Advocate', 'Skeptic', 'Risk Analyst'];

/** Debates with a distinct question each, so a provider request tells which debate it speaks for. */
export async function createDebates(
  core: Core,
  ownerId: string,
  label: string,
  count: number,
  shape: DebateShape,
): Promise<{ id: string; question: string }[]> {
  const created: { id: string; question: string }[] = [];
  for (let i = 0; i < count; i++) {
    const question = `Fault run ${label}: should team ${i} adopt plan ${i}?`;
    const debate = await insertPendingDebate(core, {
      ownerId,
      question,
      agents: shape.agents,
      rounds: shape.rounds,
    });
    created.push({ id: debate.id, question });
  }
  return created;
}

/** How many debates of the test's schema are not finished (neither completed nor failed). */
export const unfinished = async (core: Core) =>
  Number(
    (
      await core.db.execute<{ n: number }>(
        `select count(*)::int as n from debates where status not in ('completed', 'failed')`,
      )
    )[0]?.n,
  );

/** A stored or requested debater turn: which debate (by question), which round and seat. */
export const turnKey = (ref: { question: string; round: number; agent: string }) =>
  `${ref.question}|${ref.round}:${ref.agent}`;

/** Every turn stored in `debate_turns` of the test's schema. */
export async function storedTurnKeys(core: Core): Promise<Set<string>> {
  const rows = await core.db.execute<{ question: string; round: number; agent: string }>(
    'select d.question, t.round, t.agent from debate_turns t join debates d on d.id = t.debate_id',
  );
  return new Set(rows.map((row) => turnKey({ ...row, round: Number(row.round) })));
}

/** The debater turns the fake was asked for, in order (judge requests left out). */
export function requestedTurnKeys(fake: FakeLlmServer, from = 0, to = fake.requests.length): string[] {
  return fake.requests.slice(from, to).flatMap((request) => {
    const ref = debaterTurnOf(request);
    return ref ? [turnKey(ref)] : [];
  });
}

/** What a fault left behind: the turns stored at that instant and those asked for but not stored. */
export type FaultMark = {
  label: string;
  /** fake.requests.length once the stored turns were read: later requests come after the fault. */
  requestsAt: number;
  stored: Set<string>;
  inFlight: Set<string>;
};

/**
 * Marks a fault: reads the turns stored now, then the requests made so far. Call it once the fault has
 * struck (the killed process is gone, the connection is cut), so nothing the faulty side does lands later.
 * `affected` names the questions of the debates the fault can disturb (a killed node's); by default all.
 */
export async function markFault(
  core: Core,
  fake: FakeLlmServer,
  label: string,
  affected?: Set<string>,
): Promise<FaultMark> {
  const stored = await storedTurnKeys(core);
  const requestsAt = fake.requests.length;
  const inFlight = new Set(
    requestedTurnKeys(fake, 0, requestsAt).filter(
      (key) => !stored.has(key) && (!affected || affected.has(questionOf(key))),
    ),
  );
  return { label, requestsAt, stored, inFlight };
}

const questionOf = (key: string) => key.slice(0, key.lastIndexOf('|'));

/**
 * The provider-side promises of a fault run: a turn stored at a fault is never asked for again after it,
 * every expected turn was asked for, and a turn is asked once plus at most once per fault that caught it
 * in flight (so the total stays within turns + the in-flight turns of all faults).
 */
export function expectNoStoredTurnAskedAgain(
  fake: FakeLlmServer,
  expectedTurns: Set<string>,
  faults: FaultMark[],
) {
  for (const fault of faults) {
    const askedAgain = requestedTurnKeys(fake, fault.requestsAt).filter((key) => fault.stored.has(key));
    expect(askedAgain, `stored turns asked again after ${fault.label}`).toEqual([]);
  }
  const requested = requestedTurnKeys(fake);
  const foreign = requested.filter((key) => !expectedTurns.has(key));
  expect(foreign, 'requests for turns of no debate of this run').toEqual([]);
  expect(new Set(requested)).toEqual(expectedTurns);
  const perKey = new Map<string, number>();
  for (const key of requested) perKey.set(key, (perKey.get(key) ?? 0) + 1);
  const beyondBound = [...perKey].filter(
    ([key, n]) => n > 1 + faults.filter((fault) => fault.inFlight.has(key)).length,
  );
  expect(beyondBound, 'turns asked more often than the faults that caught them in flight allow').toEqual([]);
  const inFlightTotal = faults.reduce((sum, fault) => sum + fault.inFlight.size, 0);
  expect(requested.length).toBeLessThanOrEqual(expectedTurns.size + inFlightTotal);
  return { requested: requested.length, inFlightTotal };
}

export function expectedTurnKeys(debates: { question: string }[], agentNames: string[], rounds: number) {
  const keys = new Set<string>();
  for (const { question } of debates)
    for (let round = 1; round <= rounds; round++)
      for (const agent of agentNames) keys.add(turnKey({ question, round, agent }));
  return keys;
}

export type EventRow = { debate_id: string; attempt: number; seq: number; type: string; data: unknown };

const parsed = (data: unknown) =>
  (typeof data === 'string' ? JSON.parse(data) : data) as { agent?: string; round?: number };

/**
 * What storage must show for every debate of a fault run: completed on its first attempt with the whole
 * panel and every round, all turns stored, one webhook outbox row, and an event log numbered 1..N without
 * gaps that has one start, one verdict and one completion and no turn (or its thinking) twice.
 * Returns the stored events by debate, for stream comparisons.
 */
export async function expectCompleteAndConsistent(
  core: Core,
  debates: { id: string }[],
  shape: DebateShape,
): Promise<Map<string, EventRow[]>> {
  const ids = debates.map((d) => d.id);
  const rows = await core.db.execute<{
    id: string;
    status: string;
    attempt: number;
    agent_count: number;
    round_count: number;
    failure_message: string | null;
  }>('select id, status, attempt, agent_count, round_count, failure_message from debates');
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of ids) {
    const row = byId.get(id);
    expect(
      {
        id,
        status: row?.status,
        attempt: Number(row?.attempt),
        agents: Number(row?.agent_count),
        rounds: Number(row?.round_count),
        failure: row?.failure_message ?? null,
      },
      `debate ${id}`,
    ).toEqual({
      id,
      status: 'completed',
      attempt: 1,
      agents: shape.agents,
      rounds: shape.rounds,
      failure: null,
    });
  }

  // Every completed debate got its pending outcome record in the transaction that stored its verdict.
  const outcomes = await core.db.execute<{ debate_id: string; status: string; confidence: number }>(
    'select o.debate_id, o.status, o.confidence from outcomes o join debates d on d.id = o.debate_id',
  );
  const outcomeOf = new Map(outcomes.map((o) => [o.debate_id, o]));
  expect(ids.filter((id) => outcomeOf.get(id)?.status !== 'pending')).toEqual([]);

  const turns = await core.db.execute<{ debate_id: string; attempt: number; n: number }>(
    'select debate_id, attempt, count(*)::int as n from debate_turns group by debate_id, attempt',
  );
  const turnCounts = Object.fromEntries(turns.map((t) => [`${t.debate_id}:${t.attempt}`, Number(t.n)]));
  expect(turnCounts).toEqual(Object.fromEntries(ids.map((id) => [`${id}:1`, shape.agents * shape.rounds])));

  const outbox = await core.db.execute<{ debate_id: string; dedupe_key: string; event: string }>(
    'select debate_id, dedupe_key, event from webhook_outbox order by debate_id',
  );
  expect(outbox.map((row) => row.dedupe_key).sort()).toEqual(
    ids.map((id) => `debate.completed:${id}:1`).sort(),
  );
  expect(new Set(outbox.map((row) => row.event))).toEqual(new Set(['debate.completed']));

  // Each completed debate's embedding was queued with its verdict: still waiting, or done.
  const embedding = await core.db.execute<{ debate_id: string }>(
    'select debate_id from embedding_queue union all select debate_id from debate_embeddings',
  );
  expect(embedding.map((row) => row.debate_id).sort()).toEqual([...ids].sort());

  const events = await core.db.execute<EventRow>(
    'select debate_id, attempt, seq, type, data from debate_events order by debate_id, attempt, seq',
  );
  const byDebate = new Map<string, EventRow[]>(ids.map((id) => [id, []]));
  for (const event of events) byDebate.get(event.debate_id)?.push(event);
  expect(events.filter((e) => !byDebate.has(e.debate_id))).toEqual([]);
  for (const [id, log] of byDebate) {
    const count = (type: string) => log.filter((e) => e.type === type).length;
    expect(new Set(log.map((e) => Number(e.attempt))), `attempts of ${id}`).toEqual(new Set([1]));
    expect(
      log.map((e) => Number(e.seq)),
      `seq of ${id}`,
    ).toEqual(log.map((_, i) => i + 1));
    expect(
      {
        started: count('debate.started'),
        verdict: count('verdict'),
        completed: count('debate.completed'),
        failed: count('debate.failed'),
        agentFailed: count('agent.failed'),
        thinking: count('agent.thinking'),
        turns: count('argument') + count('rebuttal'),
        roundsStarted: count('round.started'),
        last: log.at(-1)?.type,
      },
      `event counts of ${id}`,
    ).toEqual({
      started: 1,
      verdict: 1,
      completed: 1,
      failed: 0,
      agentFailed: 0,
      thinking: shape.agents * shape.rounds,
      turns: shape.agents * shape.rounds,
      roundsStarted: shape.rounds,
      last: 'debate.completed',
    });
    const turnEvents = log
      .filter((e) => ['agent.thinking', 'argument', 'rebuttal', 'agent.failed'].includes(e.type))
      .map((e) => `${e.type}:${parsed(e.data).round}:${parsed(e.data).agent}`);
    const duplicates = turnEvents.filter((key, i) => turnEvents.indexOf(key) !== i);
    expect(duplicates, `duplicate turn events of ${id}`).toEqual([]);
  }
  return byDebate;
}

/**
 * Follows a debate's events on the bus from the first and expects exactly the stored log, in order, once:
 * what a live stream replays (the engine publishes every stored event, and republishes on restore).
 */
export async function expectBusHasStoredEvents(core: Core, debateId: string, stored: EventRow[]) {
  const expected = stored.map((e) => `${Number(e.seq)}:${e.type}`);
  const published: DebateEvent[] = [];
  const stop = await core.bus.events.follow(debateId, 1, 0, (event) => published.push(event));
  try {
    await eventually(
      () => published.length,
      (n) => n >= expected.length,
      10_000,
    ).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100)); // anything beyond the stored log shows up here
  } finally {
    stop();
  }
  expect(
    published.map((e) => `${e.seq}:${e.type}`),
    `events of ${debateId} on the bus`,
  ).toEqual(expected);
}
