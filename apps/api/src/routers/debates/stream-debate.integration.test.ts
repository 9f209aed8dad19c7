import { TRPCClientError } from '@trpc/client';
import type { TRPCConnectionState } from '@trpc/client/unstable-internals';
import type { DebateEvent, DebateStreamInput } from '@verdict/contracts';
import type { Core } from '@verdict/core';
import { eventually, insertPendingDebate, insertStoredDebate } from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../router.ts';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
} from '../../testing/http-harness.ts';
import { type ClientCredentials, subscribingClient } from '../../testing/trpc-subscriptions.ts';
import { router } from '../../trpc/init.ts';
import { streamDebateProcedure } from './stream-debate.ts';

type Received = { id: string; type: string; data: unknown };
type Client = ReturnType<typeof subscribingClient<AppRouter>>;

/** Every event of a subscription, as it came, until it completes; rejects with the client's error. */
async function receiveAll(
  client: Client,
  input: DebateStreamInput,
  onEvent: (event: Received) => void = () => {},
): Promise<Received[]> {
  const received: Received[] = [];
  for await (const event of client.debates.stream.subscribe(input)) {
    const one = { id: event.id, type: event.data.type, data: event.data.data };
    received.push(one);
    onEvent(one);
  }
  return received;
}

/** The error a subscription ends with; fails the test when it completes instead. */
async function refusal(events: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const error = await events.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return error as TRPCClientError<AppRouter>;
}

/** A finished debate's SSE stream, parsed: what GET /v1/verdicts/:id/stream sends at once. */
async function sseEvents(baseUrl: string, id: string, key: string): Promise<Received[]> {
  const res = await fetch(`${baseUrl}/v1/verdicts/${id}/stream`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n\n')
    .map((block) =>
      Object.fromEntries(
        block.split('\n').map((line) => [line.split(': ')[0], line.slice(line.indexOf(': ') + 2)]),
      ),
    )
    .filter((fields) => fields.data !== undefined)
    .map((fields) => ({ id: fields.id, type: fields.event, data: JSON.parse(fields.data) }));
}

describe('debates.stream, the tRPC subscription of a debate’s events', () => {
  let h: Harness;
  let core: Core;
  let engine: EngineNode;
  let owner: ClientCredentials & { id: string; key: string; cookie: string };
  let stranger: { key: string };

  const createDebate = async () =>
    (
      await insertPendingDebate(core, {
        ownerId: owner.id,
        question: 'Should we move the support team to a four-day week?',
        agents: 3,
        rounds: 2,
      })
    ).id;
  const storedSeqs = async (id: string) =>
    (
      await core.db.execute<{ seq: number }>(
        'select seq from debate_events where debate_id = ? order by seq',
        [id],
      )
    ).map((row) => String(row.seq));

  beforeAll(async () => {
    h = await startServer();
    core = h.core;
    engine = createEngineNode({
      db: core.db,
      bus: core.bus,
      clock: core.clock,
      slots: 4,
      providerKeys: {},
      simulated: { firstTokenMs: 100 },
      policy: { timeoutMs: 2000, retries: 1, backoffMs: 10 },
    });
    engine.start();
    const user = await registerUser(h);
    owner = { id: user.session.user.id, cookie: user.cookie, key: (await createKey(h, user)).key };
    stranger = { key: (await createKey(h, await registerUser(h))).key };
  });
  afterAll(async () => {
    await engine?.stop();
    await h?.close();
  });

  it('streams a running debate to debate.completed, each event tracked with the SSE stream’s id, event name and data', async () => {
    const id = await createDebate();
    const events = await receiveAll(subscribingClient<AppRouter>(h.baseUrl, { key: owner.key }), { id });

    expect(events.map((e) => e.id)).toEqual(await storedSeqs(id));
    expect(events[0]).toMatchObject({ id: '1', type: 'debate.started', data: { debateId: id } });
    expect(events.at(-1)).toEqual({
      id: String(events.length),
      type: 'debate.completed',
      data: { debateId: id, status: 'completed' },
    });
    // The verdict's confidence in whole-number percent, as the SSE stream sends it: the same events exactly.
    const verdict = events.find((e) => e.type === 'verdict')?.data as { confidence: number };
    expect(Number.isInteger(verdict.confidence)).toBe(true);
    expect(events).toEqual(await sseEvents(h.baseUrl, id, owner.key));
  });

  it('resumes on the same subscription after its connection is cut mid-debate: every stored event once, in order', async () => {
    const id = await createDebate();
    const client = subscribingClient<AppRouter>(h.baseUrl, { key: owner.key });
    let cut = false;
    const events = await receiveAll(client, { id }, (event) => {
      // Every connection of the server closed under the client, as when a proxy or the network drops it.
      if (event.type === 'argument' && !cut) {
        cut = true;
        h.app.server.closeAllConnections();
      }
    });
    expect(cut).toBe(true);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await storedSeqs(id));
    expect(events.at(-1)?.type).toBe('debate.completed');
  }, 20_000);

  it('starts after lastEventId, and a resume at the final event completes at once with nothing', async () => {
    const id = await createDebate();
    const client = subscribingClient<AppRouter>(h.baseUrl, { key: owner.key });
    const all = await receiveAll(client, { id });
    const after3 = await receiveAll(client, { id, lastEventId: '3' });
    expect(after3).toEqual(all.slice(3));
    expect(await receiveAll(client, { id, lastEventId: all.at(-1)?.id as string })).toEqual([]);
  });

  it('takes the session cookie as well as a key', async () => {
    const id = await createDebate();
    const events = await receiveAll(subscribingClient<AppRouter>(h.baseUrl, { cookie: owner.cookie }), {
      id,
    });
    expect(events.at(-1)?.type).toBe('debate.completed');
  });

  it('refuses another account’s private debate with NOT_FOUND, as GET /api/debates/:id/stream answers 404', async () => {
    const id = await createDebate();
    const error = await refusal(
      receiveAll(subscribingClient<AppRouter>(h.baseUrl, { key: stranger.key }), { id }),
    );
    expect(error.data).toMatchObject({ appCode: 'NOT_FOUND', httpStatus: 404, code: 'NOT_FOUND' });
    expectError(await h.request('GET', `/api/debates/${id}/stream`, { key: stranger.key }), 'NOT_FOUND');
    const missing = await refusal(
      receiveAll(subscribingClient<AppRouter>(h.baseUrl, { key: owner.key }), {
        id: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(missing.data?.appCode).toBe('NOT_FOUND');
  });

  it('refuses a revoked key and no credentials with UNAUTHORIZED, as the SSE route does', async () => {
    const id = await createDebate();
    const user = await registerUser(h);
    const revoked = await createKey(h, user);
    expect((await h.request('DELETE', `/api/keys/${revoked.id}`, { cookie: user.cookie })).status).toBe(204);
    for (const credentials of [{ key: revoked.key }, {}]) {
      const error = await refusal(receiveAll(subscribingClient<AppRouter>(h.baseUrl, credentials), { id }));
      expect(error.data).toMatchObject({ appCode: 'UNAUTHORIZED', httpStatus: 401 });
    }
    expectError(await h.request('GET', `/api/debates/${id}/stream`, { key: revoked.key }), 'UNAUTHORIZED');
  });

  it('refuses a bad id or a bad lastEventId with VALIDATION_ERROR naming the field', async () => {
    const client = subscribingClient<AppRouter>(h.baseUrl, { key: owner.key });
    const badId = await refusal(receiveAll(client, { id: 'not-a-uuid' }));
    expect(badId.data).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: 'id' })],
    });
    const badLast = await refusal(receiveAll(client, { id: await createDebate(), lastEventId: 'seven' }));
    expect(badLast.data).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ path: 'lastEventId' })],
    });
  });
});

/** The subscription with a storage check every 100 ms, in a router of its own: debates nothing runs. */
const quickRouter = router({ debates: router({ stream: streamDebateProcedure({ checkEveryMs: 100 }) }) });
type QuickError = TRPCClientError<typeof quickRouter>;

/** A server of the quick router with no engine, its user's key, and the live bus subscriptions it holds. */
async function quickServer() {
  const h = await startServer({ router: quickRouter });
  // The test router has no auth or key routes: the user and key through the core.
  const user = await h.core.accounts.createUser({ email: `quick-${Date.now()}@example.com`, name: 'Quick' });
  await h.core.accounts.setRateLimit(user.id, 10_000);
  const key = (await h.core.apiKeys.create(user.id, 'quick')).key;
  // Every follow of the bus, less those stopped.
  let following = 0;
  const { events } = h.core.bus;
  const follow = events.follow;
  events.follow = async (...args) => {
    const stop = await follow(...args);
    following++;
    let stopped = false;
    return () => {
      if (!stopped) following--;
      stopped = true;
      stop();
    };
  };
  return {
    h,
    ownerId: user.id,
    client: () => subscribingClient<typeof quickRouter>(h.baseUrl, { key }),
    runningDebate: () =>
      insertStoredDebate(h.core, { ownerId: user.id, question: 'Who runs this?', status: 'running' }),
    busFollows: () => following,
  };
}

/** A subscription held open with callbacks: what it got, its connection states, and how it ended. */
function hold(client: ReturnType<typeof subscribingClient<typeof quickRouter>>, id: string) {
  const received: string[] = [];
  const states: TRPCConnectionState<QuickError>[] = [];
  let started!: () => void;
  const onStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  let finish!: (how: { completed: true } | { error: QuickError }) => void;
  const ended = new Promise<{ completed: true } | { error: QuickError }>((resolve) => {
    finish = resolve;
  });
  const subscription = client.debates.stream.subscribe(
    { id },
    {
      onStarted: () => started(),
      onData: (event) => received.push(`${event.id} ${event.data.type}`),
      onConnectionStateChange: (state) => states.push(state),
      onError: (error) => finish({ error }),
      onComplete: () => finish({ completed: true }),
    },
  );
  return { received, states, started: onStarted, ended, unsubscribe: () => subscription.unsubscribe() };
}

describe('debates.stream on debates no engine runs', () => {
  let quick: Awaited<ReturnType<typeof quickServer>>;
  const held = (id: string) => hold(quick.client(), id);
  beforeAll(async () => {
    quick = await quickServer();
  });
  afterAll(async () => {
    await quick?.h.close();
  });

  it('shares one bus subscription among N subscriptions of a debate, hands each every live event, and ends it with the last', async () => {
    const id = await quick.runningDebate();
    const subscriptions = Array.from({ length: 5 }, () => held(id));
    await Promise.all(subscriptions.map((s) => s.started));
    await eventually(
      () => quick.h.core.debateEvents.following(),
      (now) => now.followers === 5,
    );
    expect(quick.h.core.debateEvents.following()).toEqual({ attempts: 1, followers: 5 });
    expect(quick.busFollows()).toBe(1);

    const at = new Date().toISOString();
    await quick.h.core.bus.events.publish({
      debateId: id,
      attempt: 1,
      seq: 1,
      at,
      type: 'round.started',
      data: { round: 1, injected: [] },
    });
    await eventually(
      () => subscriptions.map((s) => s.received.length),
      (counts) => counts.every((n) => n === 1),
    );
    for (const s of subscriptions) expect(s.received).toEqual(['1 round.started']);

    for (const s of subscriptions.slice(1)) s.unsubscribe();
    await eventually(
      () => quick.h.core.debateEvents.following().followers,
      (n) => n === 1,
    );
    expect(quick.busFollows()).toBe(1);
    await quick.h.core.bus.events.publish({
      debateId: id,
      attempt: 1,
      seq: 2,
      at,
      type: 'debate.completed',
      data: { debateId: id, status: 'completed' },
    });
    expect(await subscriptions[0]?.ended).toEqual({ completed: true });
    expect(subscriptions[0]?.received).toEqual(['1 round.started', '2 debate.completed']);
    await eventually(quick.busFollows, (n) => n === 0);
    expect(quick.h.core.debateEvents.following()).toEqual({ attempts: 0, followers: 0 });
  });

  it('sends what was stored but never published, read from storage, once the bus carries a later one', async () => {
    const id = await quick.runningDebate();
    const subscription = held(id);
    await subscription.started;
    // Its holder stored these (the last ones with the final state) and died before publishing them; the next
    // holder publishes what it finds stored (engine: restore, or a finished debate's returning job).
    const failed = { debateId: id, error: 'gave up', code: 'PROVIDER_ERROR' };
    await quick.h.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data) values
         (?, 1, 1, 'round.started', '{"round": 1, "injected": []}'::jsonb),
         (?, 1, 2, 'debate.failed', ?::jsonb)`,
      [id, id, JSON.stringify(failed)],
    );
    await quick.h.core.bus.events.publish({
      debateId: id,
      attempt: 1,
      seq: 2,
      at: new Date().toISOString(),
      type: 'debate.failed',
      data: failed,
    } as DebateEvent);
    expect(await subscription.ended).toEqual({ completed: true });
    expect(subscription.received).toEqual(['1 round.started', '2 debate.failed']);
  });

  it('ends with NOT_FOUND once the debate is deleted', async () => {
    const id = await quick.runningDebate();
    const subscription = held(id);
    await subscription.started;
    await quick.h.core.debates.softDelete(quick.ownerId, id);
    const ended = await subscription.ended;
    expect('error' in ended && ended.error.data?.appCode).toBe('NOT_FOUND');
  });
});

// A server of its own: connections the client left on earlier tests' servers cannot hold this close up.
describe('debates.stream when the server closes', () => {
  it('is ended at once with a retryable SERVICE_UNAVAILABLE, and lets go of the bus', async () => {
    const quick = await quickServer();
    const id = await quick.runningDebate();
    const subscription = hold(quick.client(), id);
    await subscription.started;
    await eventually(quick.busFollows, (n) => n === 1);
    const closing = Date.now();
    try {
      await quick.h.app.close();
      // Not the shutdown grace: the subscription did not hold the close up.
      expect(Date.now() - closing).toBeLessThan(2000);
      // The link keeps the subscription and reconnects (SERVICE_UNAVAILABLE is retryable), resuming elsewhere.
      const refused = await eventually(
        () => subscription.states.find((state) => state.error !== null),
        (state) => state !== undefined,
        2000,
      );
      expect(refused).toMatchObject({ state: 'connecting' });
      expect(refused?.error?.data?.appCode).toBe('SERVICE_UNAVAILABLE');
      expect(quick.busFollows()).toBe(0);
      expect(quick.h.core.debateEvents.following()).toEqual({ attempts: 0, followers: 0 });
    } finally {
      subscription.unsubscribe();
      await quick.h.close();
    }
  });
});

describe('debates.stream and the stream budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { STREAM_OPENS_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts each subscription as a stream open, and a resume at the final event as a request', async () => {
    const user = await registerUser(h);
    const { key } = await createKey(h, user);
    const id = await insertStoredDebate(h.core, { ownerId: user.session.user.id, question: 'Done long ago' });
    await h.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data) values (?, 1, 1, 'debate.completed', ?::jsonb)`,
      [id, JSON.stringify({ debateId: id, status: 'completed' })],
    );
    const client = subscribingClient<AppRouter>(h.baseUrl, { key });
    // What a client does after debate.completed: come back with the last id. Nothing is sent, nothing spent.
    for (let i = 0; i < 5; i++) expect(await receiveAll(client, { id, lastEventId: '1' })).toEqual([]);
    for (let i = 0; i < 3; i++)
      expect((await receiveAll(client, { id })).map((e) => e.type)).toEqual(['debate.completed']);
    const refused = await refusal(receiveAll(client, { id }));
    expect(refused.data).toMatchObject({
      appCode: 'RATE_LIMITED',
      extra: { budget: 'streamOpens', limit: 3 },
    });
    // The requests budget is another: a query still answers.
    expect((await client.debates.get.query({ id })).id).toBe(id);
  });
});
