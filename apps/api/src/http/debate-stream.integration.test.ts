import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import type { DebateEvent } from '@verdict/contracts';
import type { Core } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  insertPendingDebate,
  type PendingDebate,
  type TestCore,
} from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/credentials.ts';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';
import { registerDebateStreams } from './debate-stream.ts';

// ---- a small SSE client -------------------------------------------------------------------------------

type SseEvent = { id: string; event: string; data: Record<string, unknown> };

/** Parses an SSE body block by block; comments are counted, messages queued in order. */
function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const queue: SseEvent[] = [];
  const comments: string[] = [];
  /** Each `retry:` the server sent, in ms. */
  const retries: number[] = [];
  let buffer = '';
  let ended = false;

  const parseBlock = (block: string) => {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'retry') retries.push(Number(value));
      fields[name] = name === 'data' && fields.data !== undefined ? `${fields.data}\n${value}` : value;
    }
    if (fields.data === undefined) return;
    queue.push({ id: fields.id ?? '', event: fields.event ?? 'message', data: JSON.parse(fields.data) });
  };

  const fill = async () => {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      return;
    }
    buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n?/g, '\n');
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  };

  return {
    comments,
    retries,
    /** The next message, or null once the server has ended the stream. */
    next: async (): Promise<SseEvent | null> => {
      while (queue.length === 0 && !ended) await fill();
      return queue.shift() ?? null;
    },
    /** Every remaining message, until the server ends the stream. */
    rest: async (): Promise<SseEvent[]> => {
      while (!ended) await fill();
      return queue.splice(0);
    },
    /** Resolves once the server ended the stream, or rejects after `ms`. */
    ended: async (ms: number) => {
      const deadline = Date.now() + ms;
      while (!ended) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('stream still open');
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('stream still open')), left);
        });
        try {
          await Promise.race([fill(), timeout]);
        } finally {
          clearTimeout(timer);
        }
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

type Credentials = { key?: string; cookie?: string; lastEventId?: string; query?: string };

async function openStream(baseUrl: string, path: string, credentials: Credentials = {}) {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (credentials.key) headers.authorization = `Bearer ${credentials.key}`;
  if (credentials.cookie) headers.cookie = `${SESSION_COOKIE}=${credentials.cookie}`;
  if (credentials.lastEventId !== undefined) headers['last-event-id'] = credentials.lastEventId;
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${path}${credentials.query ?? ''}`, {
    headers,
    signal: abort.signal,
  });
  if (!response.body) throw new Error('no body');
  const reader = sseReader(response.body);
  return {
    response,
    ...reader,
    abort: async () => {
      await reader.cancel();
      abort.abort();
    },
  };
}

const seqs = (events: SseEvent[]) => events.map((e) => Number(e.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// ---- the tests -----------------------------------------------------------------------------------------

describe('debate streams (SSE)', () => {
  let harness: Harness;
  let core: Core;
  let engine: EngineNode;
  let owner: { id: string; key: string };
  let stranger: { id: string; key: string };

  const v1 = (id: string) => `/v1/verdicts/${id}/stream`;
  const api = (id: string) => `/api/debates/${id}/stream`;

  const createDebate = async (ownerId: string, on: Core = core) =>
    (
      await insertPendingDebate(on, {
        ownerId,
        question: 'Should we move the support team to a four-day week?',
        agents: 3,
        rounds: 2,
      } satisfies PendingDebate)
    ).id;

  const storedSeqs = async (id: string) =>
    (
      await core.db.execute<{ seq: number }>(
        'select seq from debate_events where debate_id = ? order by seq',
        [id],
      )
    ).map((row) => Number(row.seq));

  const finished = (id: string) => debateReaching(core, id);

  const newUser = async (label: string) => {
    const user = await core.accounts.createUser({ email: `${label}-${Date.now()}@example.com`, name: label });
    // Pro: 120 keyed requests a minute, well above what this file sends per key.
    await core.accounts.setPlan(user.id, 'pro');
    return { id: user.id, key: (await core.apiKeys.create(user.id, 'k')).key };
  };

  beforeAll(async () => {
    harness = await startServer();
    core = harness.core;
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
    owner = await newUser('owner');
    stranger = await newUser('stranger');
  });
  afterAll(async () => {
    await engine?.stop();
    await harness?.close();
  });

  it('streams a running debate from the first event through debate.completed, then closes', async () => {
    const id = await createDebate(owner.id);
    const stream = await openStream(harness.baseUrl, v1(id), { key: owner.key });

    expect(stream.response.status).toBe(200);
    const headers = stream.response.headers;
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('connection')).toBe('keep-alive');
    expect(headers.get('x-accel-buffering')).toBe('no');
    // Streams count against their own budget (STREAM_OPENS_PER_MINUTE, default 60), not the request budget.
    expect(headers.get('x-ratelimit-limit')).toBe('60');
    expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);

    const events = await stream.rest(); // returns only once the server ends the stream
    expect(seqs(events)).toEqual(range(1, events.length));
    expect(seqs(events)).toEqual(await storedSeqs(id));
    expect(events[0]).toMatchObject({ event: 'debate.started', data: { debateId: id, mode: 'fast' } });
    expect(events.at(-1)).toEqual({
      id: String(events.length),
      event: 'debate.completed',
      data: { debateId: id, status: 'completed' },
    });

    const argument = events.find((e) => e.event === 'argument');
    expect(argument?.data).toMatchObject({
      agent: expect.any(String),
      round: 1,
      content: expect.any(String),
    });
    const rebuttal = events.find((e) => e.event === 'rebuttal');
    expect(rebuttal?.data).toMatchObject({
      agent: expect.any(String),
      round: 2,
      content: expect.any(String),
      targetAgent: expect.any(String),
    });

    const verdicts = events.filter((e) => e.event === 'verdict');
    expect(verdicts).toHaveLength(1);
    const verdict = verdicts[0]!.data;
    expect(verdict).toMatchObject({
      recommendation: expect.any(String),
      oneLiner: expect.any(String),
      reasoning: expect.any(String),
    });
    expect(Number.isInteger(verdict.confidence)).toBe(true);
    expect(verdict.confidence).toBeGreaterThanOrEqual(0);
    expect(verdict.confidence).toBeLessThanOrEqual(100);
    const [stored] = await core.db.execute<{ data: { confidence: number } | string }>(
      `select data from debate_events where debate_id = ? and type = 'verdict'`,
      [id],
    );
    const storedData = typeof stored!.data === 'string' ? JSON.parse(stored!.data) : stored!.data;
    expect(verdict.confidence).toBe(Math.round(storedData.confidence * 100));
  });

  it('follows a debate named by its id in capitals live through debate.completed, then closes', async () => {
    const id = await createDebate(owner.id);
    const stream = await openStream(harness.baseUrl, api(id.toUpperCase()), { key: owner.key });
    expect(stream.response.status).toBe(200);
    await stream.ended(15_000);
    const events = await stream.rest();
    expect(seqs(events)).toEqual(await storedSeqs(id));
    expect(events.at(-1)).toMatchObject({ event: 'debate.completed', data: { debateId: id } });
  });

  it('resumes after Last-Event-ID mid-debate with no gap and no duplicate', async () => {
    const id = await createDebate(owner.id);
    const first = await openStream(harness.baseUrl, v1(id), { key: owner.key });
    const seen: SseEvent[] = [];
    for (let i = 0; i < 3; i++) {
      const event = await first.next();
      if (event) seen.push(event);
    }
    expect(seqs(seen)).toEqual([1, 2, 3]);
    await first.abort();
    // Still running: the reconnect replays stored events and then follows live ones.
    const [row] = await core.db.execute<{ status: string }>('select status from debates where id = ?', [id]);
    expect(row?.status).toBe('running');

    const second = await openStream(harness.baseUrl, v1(id), { key: owner.key, lastEventId: '3' });
    expect(second.response.status).toBe(200);
    const resumed = await second.rest();
    const union = [...seen, ...resumed];
    expect(seqs(union)).toEqual(range(1, union.length));
    expect(union.at(-1)?.event).toBe('debate.completed');
    expect(seqs(union)).toEqual(await storedSeqs(id));
  });

  it.each([
    ['at the last event', (lastSeen: number) => lastSeen],
    ['past the last event', () => 10_000],
  ])(
    "ends a running debate's stream when the debate ends, opened with a Last-Event-ID %s",
    async (_label, idFor) => {
      const id = await createDebate(owner.id);
      const first = await openStream(harness.baseUrl, v1(id), { key: owner.key });
      const seen: SseEvent[] = [];
      for (let i = 0; i < 3; i++) seen.push((await first.next()) as SseEvent);
      await first.abort();
      const stream = await openStream(harness.baseUrl, v1(id), {
        key: owner.key,
        lastEventId: String(idFor(Number(seen.at(-1)?.id))),
      });
      expect(stream.response.status).toBe(200);
      await stream.ended(15_000);
      await finished(id);
      const [row] = await core.db.execute<{ status: string }>('select status from debates where id = ?', [
        id,
      ]);
      expect(row?.status).toBe('completed');
      const stored = await storedSeqs(id);
      // Nothing skipped from the last event the client really saw, the final one included.
      const received = await stream.rest();
      expect(received.at(-1)?.event).toBe('debate.completed');
      expect(seqs(received).at(-1)).toBe(stored.at(-1));
    },
  );

  it('answers 204 to a resume whose Last-Event-ID is the final event, even while the row still reads running', async () => {
    const [row] = await core.db.execute<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Ended, row not yet final', 'fast', 'running', 'user_credits', 3, 1) returning id`,
      [owner.id],
    );
    const id = row!.id;
    await core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data) values
         (?, 1, 1, 'round.started', '{"round":1,"injected":[]}'::jsonb),
         (?, 1, 2, 'debate.failed', '{"error":"gave up","code":"PROVIDER_ERROR"}'::jsonb)`,
      [id, id],
    );
    for (const lastEventId of ['2', '7']) {
      const res = await fetch(`${harness.baseUrl}${v1(id)}`, {
        headers: { authorization: `Bearer ${owner.key}`, 'last-event-id': lastEventId },
      });
      expect(res.status).toBe(204);
    }
  });

  it('fills a gap in the bus from the database: an event stored but never published still reaches the client', async () => {
    // A debate no engine runs (no job), so the test plays the node: it stores seq 1 and dies before
    // publishing it; the next holder publishes seq 2.
    const [row] = await core.db.execute<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Gap test', 'fast', 'running', 'user_credits', 3, 1) returning id`,
      [owner.id],
    );
    const id = row!.id;
    const stream = await openStream(harness.baseUrl, v1(id), { key: owner.key });
    expect(stream.response.status).toBe(200);
    const event = (seq: number, type: string, data: Record<string, unknown>) =>
      ({ debateId: id, attempt: 1, seq, type, data, at: new Date().toISOString() }) as DebateEvent;
    const store = (e: DebateEvent) =>
      core.db.execute(
        'insert into debate_events (debate_id, attempt, seq, type, data) values (?, 1, ?, ?, ?::jsonb)',
        [id, e.seq, e.type, JSON.stringify(e.data)],
      );
    const first = event(1, 'round.started', { round: 1, injected: [] });
    const second = event(2, 'agent.thinking', { agent: 'Advocate', round: 1 });
    const last = event(3, 'debate.failed', { debateId: id, error: 'gave up', code: 'PROVIDER_ERROR' });
    await store(first);
    await store(second);
    await core.bus.events.publish(second);
    await store(last);
    await core.bus.events.publish(last);
    const received = await stream.rest();
    expect(received.map((e) => [Number(e.id), e.event])).toEqual([
      [1, 'round.started'],
      [2, 'agent.thinking'],
      [3, 'debate.failed'],
    ]);
  });

  it('answers a finished debate with all its events at once and closes; Last-Event-ID and ?lastEventId skip', async () => {
    const id = await createDebate(owner.id);
    await finished(id);
    const all = await storedSeqs(id);
    const last = all.at(-1)!;

    const full = await openStream(harness.baseUrl, v1(id), { key: owner.key });
    const events = await full.rest();
    expect(seqs(events)).toEqual(all);
    expect(events.at(-1)?.event).toBe('debate.completed');

    const fromQuery = await openStream(harness.baseUrl, v1(id), { key: owner.key, query: '?lastEventId=2' });
    expect(seqs(await fromQuery.rest())).toEqual(range(3, last));

    // The header (what EventSource sends on reconnect) wins over the query of the original URL.
    const both = await openStream(harness.baseUrl, v1(id), {
      key: owner.key,
      lastEventId: String(last - 1),
      query: '?lastEventId=0',
    });
    expect(seqs(await both.rest())).toEqual([last]);

    // Nothing left: 204, which makes a browser's EventSource stop reconnecting.
    const atEnd = await fetch(`${harness.baseUrl}${v1(id)}`, {
      headers: { authorization: `Bearer ${owner.key}`, 'last-event-id': String(last) },
    });
    expect(atEnd.status).toBe(204);
    expect(await atEnd.text()).toBe('');
    expect(atEnd.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('serves /api/debates/:id/stream with the session cookie (and a key); /v1 refuses the cookie', async () => {
    const user = await registerUser(harness);
    const id = await createDebate(user.session.user.id);

    const stream = await openStream(harness.baseUrl, api(id), { cookie: user.cookie });
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.response.headers.get('x-ratelimit-limit')).toBe('60'); // a session's stream counts too
    const events = await stream.rest();
    expect(seqs(events)).toEqual(range(1, events.length));
    expect(events.at(-1)?.event).toBe('debate.completed');

    const byKey = await openStream(harness.baseUrl, api(id), {
      key: (await core.apiKeys.create(user.session.user.id, 'k')).key,
    });
    expect(seqs(await byKey.rest())).toEqual(seqs(events));

    const v1ByCookie = await harness.request('GET', v1(id), { cookie: user.cookie });
    expectError(v1ByCookie, 'UNAUTHORIZED');
  });

  it("answers 404 NOT_FOUND for another user's private debate (and a missing one), with rate-limit headers", async () => {
    const id = await createDebate(owner.id);
    for (const path of [v1(id), api(id), v1('5f0c6b1e-8a4c-4d8e-9a51-0c3f1b6f2a10')]) {
      const res = await harness.request('GET', path, { key: stranger.key });
      expectError(res, 'NOT_FOUND');
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    }
    // Made public, the same debate is visible to anyone.
    await finished(id);
    await core.db.execute('update debates set is_public = true where id = ?', [id]);
    const events = await (await openStream(harness.baseUrl, v1(id), { key: stranger.key })).rest();
    expect(events.at(-1)?.event).toBe('debate.completed');
  });

  it('answers 401 UNAUTHORIZED without a valid key on /v1, and without any credentials on /api', async () => {
    const id = await createDebate(owner.id);
    expectError(await harness.request('GET', v1(id)), 'UNAUTHORIZED');
    expectError(await harness.request('GET', v1(id), { key: 'vrd_not-a-real-key' }), 'UNAUTHORIZED');
    expectError(await harness.request('GET', api(id)), 'UNAUTHORIZED');
    expectError(await harness.request('GET', api(id), { cookie: 'not-a-session' }), 'UNAUTHORIZED');
  });

  it('answers 400 VALIDATION_ERROR with details for a bad id or a bad Last-Event-ID', async () => {
    const badId = await harness.request('GET', v1('not-a-uuid'), { key: owner.key });
    const error = expectError(badId, 'VALIDATION_ERROR');
    expect(error.details).toEqual([expect.objectContaining({ path: 'id' })]);
    expect(badId.headers.get('x-ratelimit-limit')).toBe('60');
    expectError(await harness.request('GET', api('123'), { key: owner.key }), 'VALIDATION_ERROR');

    const id = await createDebate(owner.id);
    for (const value of ['abc', '-1', '1.5', '99999999999999999999']) {
      const res = await harness.request('GET', v1(id), {
        key: owner.key,
        headers: { 'last-event-id': value },
      });
      expect(expectError(res, 'VALIDATION_ERROR').details).toEqual([
        expect.objectContaining({ path: 'Last-Event-ID' }),
      ]);
    }
    for (const query of ['?lastEventId=x', '?lastEventId=', '?lastEventId=%205']) {
      const res = await harness.request('GET', `${v1(id)}${query}`, { key: owner.key });
      expect(expectError(res, 'VALIDATION_ERROR').details, query).toEqual([
        expect.objectContaining({ path: 'lastEventId' }),
      ]);
    }
    // Last-Event-ID wins over the query, but a malformed query is refused all the same.
    const both = await harness.request('GET', `${v1(id)}?lastEventId=x`, {
      key: owner.key,
      headers: { 'last-event-id': '1' },
    });
    expect(expectError(both, 'VALIDATION_ERROR').details).toEqual([
      expect.objectContaining({ path: 'lastEventId' }),
    ]);
  });

  it('reads an empty Last-Event-ID as no event: the stream starts from the first', async () => {
    const id = await createDebate(owner.id);
    await finished(id);
    const res = await fetch(`${harness.baseUrl}${v1(id)}`, {
      headers: { authorization: `Bearer ${owner.key}`, 'last-event-id': '' },
    });
    expect(res.status).toBe(200);
    const ids = [...(await res.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(await storedSeqs(id));
  });

  describe('on a debate no engine picks up', () => {
    let other: TestCore;
    let app: FastifyInstance;
    let baseUrl: string;

    beforeAll(async () => {
      // A second process on the same data with a bus of its own: its debates stay pending.
      other = await createTestCore({ DATABASE_SCHEMA: harness.schema });
      app = Fastify({ forceCloseConnections: true });
      await app.register(fastifyCookie);
      registerDebateStreams(app, other.core, { keepAliveMs: 50 });
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await app?.close();
      await other?.core.close();
    });

    it('delivers what was stored but never published, read from the database, once the bus carries a later one', async () => {
      const id = await createDebate(owner.id, other.core);
      const stream = await openStream(baseUrl, v1(id), { key: owner.key });
      expect(stream.response.status).toBe(200);
      // Its holder stored these (the last ones with the final state) and died before publishing them; the
      // next holder publishes what it finds stored (engine: restore, or a finished debate's returning job).
      const failed = { debateId: id, error: 'gave up', code: 'PROVIDER_ERROR' };
      await other.core.db.execute(
        `insert into debate_events (debate_id, attempt, seq, type, data) values
           (?, 1, 1, 'round.started', '{"round": 1, "injected": []}'::jsonb),
           (?, 1, 2, 'debate.failed', ?::jsonb)`,
        [id, id, JSON.stringify(failed)],
      );
      await expect(stream.ended(300)).rejects.toThrow('stream still open');
      await other.core.bus.events.publish({
        debateId: id,
        attempt: 1,
        seq: 2,
        at: new Date().toISOString(),
        type: 'debate.failed',
        data: failed,
      } as DebateEvent);
      await stream.ended(2000);
      expect((await stream.rest()).map((e) => [Number(e.id), e.event])).toEqual([
        [1, 'round.started'],
        [2, 'debate.failed'],
      ]);
    });

    it('ends a followed stream as its debate is deleted or retried, without waiting for a keep-alive', async () => {
      // Keep-alives a minute apart: only the database's notification of the change can end these streams.
      const quiet = Fastify({ forceCloseConnections: true });
      await quiet.register(fastifyCookie);
      registerDebateStreams(quiet, other.core, { keepAliveMs: 60_000 });
      await quiet.listen({ port: 0, host: '127.0.0.1' });
      const quietUrl = `http://127.0.0.1:${(quiet.server.address() as AddressInfo).port}`;
      try {
        const deleted = await createDebate(owner.id, other.core);
        const retried = await createDebate(owner.id, other.core);
        const streams = await Promise.all(
          [deleted, retried].map((id) => openStream(quietUrl, v1(id), { key: owner.key })),
        );
        expect(streams.map((s) => s.response.status)).toEqual([200, 200]);
        await expect(streams[0]?.ended(300)).rejects.toThrow('stream still open');
        await other.core.debates.softDelete(owner.id, deleted);
        await streams[0]?.ended(2000);
        await expect(streams[1]?.ended(100)).rejects.toThrow('stream still open');
        // A retry is a new attempt, whoever writes it (the trigger hears every writer).
        await other.core.db.execute('update debates set attempt = attempt + 1 where id = ?', [retried]);
        await streams[1]?.ended(2000);
        expect((await openStream(quietUrl, v1(deleted), { key: owner.key })).response.status).toBe(404);
      } finally {
        await quiet.close();
      }
    });

    it('closes a followed stream at the next keep-alive once its debate is deleted, and the reconnect gets 404', async () => {
      const id = await createDebate(owner.id, other.core);
      const stream = await openStream(baseUrl, v1(id), { key: owner.key });
      expect(stream.response.status).toBe(200);
      await expect(stream.ended(200)).rejects.toThrow('stream still open');
      await other.core.debates.softDelete(owner.id, id);
      await stream.ended(2000);
      expect((await openStream(baseUrl, v1(id), { key: owner.key })).response.status).toBe(404);
    });

    it('sends keep-alive comments while idle; a hang-up and app.close() stop following the bus, the close with a retry hint', async () => {
      // Count the live bus subscriptions the process holds.
      let following = 0;
      const { events } = other.core.bus;
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

      const id = await createDebate(owner.id, other.core);
      const stream = await openStream(baseUrl, v1(id), { key: owner.key });
      expect(stream.response.status).toBe(200);
      const quiet = stream.ended(300);
      await expect(quiet).rejects.toThrow('stream still open');
      expect(stream.comments.length).toBeGreaterThanOrEqual(2);
      expect(new Set(stream.comments)).toEqual(new Set(['keep-alive']));

      // Two streams of one debate share one bus subscription.
      const hungUp = await openStream(baseUrl, api(id), { key: owner.key });
      await eventually(
        () => other.core.debateEvents.following().followers,
        (n) => n === 2,
      );
      expect(following).toBe(1);
      await hungUp.abort();
      await eventually(
        () => other.core.debateEvents.following().followers,
        (n) => n === 1,
      );
      expect(following).toBe(1);

      const started = Date.now();
      expect(stream.retries).toEqual([]);
      await app.close();
      await stream.ended(2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await stream.rest()).toEqual([]);
      // The process is going away: the client is told to reconnect (elsewhere) within a second or two.
      expect(stream.retries).toHaveLength(1);
      expect(stream.retries[0]).toBeGreaterThanOrEqual(500);
      expect(stream.retries[0]).toBeLessThan(1500);
      expect(stream.comments.at(-1)).toBe('this server is shutting down; reconnect');
      expect(following).toBe(0);
      expect(other.core.debateEvents.following()).toEqual({ attempts: 0, followers: 0 });
    });
  });
});

describe('the stream budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { STREAM_OPENS_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A debate of `user` finished long ago, whose one stored event is debate.completed (seq 1). */
  const finishedDebate = async (user: TestUser) => {
    const [row] = await h.core.db.execute<{ id: string }>(
      `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds)
       values (?, 'Finished long ago', 'fast', 'completed', 'user_credits', 3, 1) returning id`,
      [user.session.user.id],
    );
    await h.core.db.execute(
      `insert into debate_events (debate_id, attempt, seq, type, data) values
         (?, 1, 1, 'debate.completed', '{"status":"completed"}'::jsonb)`,
      [row!.id],
    );
    return row!.id;
  };

  it('names the stream budget when it refuses an open: at most N stream opens per minute', async () => {
    const user = await registerUser(h);
    const path = `/api/debates/${await finishedDebate(user)}/stream`;
    for (let i = 0; i < 3; i++)
      expect((await h.request('GET', path, { cookie: user.cookie })).status).toBe(200);
    const refused = await h.request('GET', path, { cookie: user.cookie });
    const error = expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    expect(error.message).toMatch(/^At most 3 stream opens per minute; retry in \d+ s$/);
    expect(error).toMatchObject({ budget: 'streamOpens', limit: 3 });
  });

  it('does not spend a stream open on a 204 for a finished debate (the reconnect after debate.completed): it is a request', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    // A key's requests count against the plan's 10 a minute (the session's have a budget of their own).
    const { key } = await createKey(h, user);
    const path = `/api/debates/${await finishedDebate(user)}/stream`;
    await clearOfMinuteEdge();
    // What EventSource does after debate.completed: reconnect once with the last id, and stop on the 204.
    const reconnects = [];
    for (let i = 0; i < 5; i++) {
      reconnects.push(await h.request('GET', path, { key, headers: { 'last-event-id': '1' } }));
    }
    expect(reconnects.map((res) => res.status)).toEqual([204, 204, 204, 204, 204]);
    // Counted as requests instead (the plan's 10 a minute), as their headers say.
    expect(reconnects.map((res) => res.headers.get('x-ratelimit-limit'))).toEqual(Array(5).fill('10'));
    expect(reconnects.map((res) => res.headers.get('x-ratelimit-remaining'))).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
    ]);
    // The stream budget is whole: three opens that stream.
    const opens = [];
    for (let i = 0; i < 3; i++) opens.push(await h.request('GET', path, { key }));
    expect(opens.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(opens.map((res) => res.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
  });

  it('lets a client that spent its request budget reconnect to a stream, and limits stream opens apart', async () => {
    const user = await registerUser(h, { rateLimit: 'plan' });
    const { key } = await createKey(h, user);
    const path = `/api/debates/${await finishedDebate(user)}/stream`;
    await clearOfMinuteEdge();
    // The account's 10 keyed requests a minute are spent…
    for (let i = 0; i < 10; i++) await h.request('GET', '/api/keys', { key });
    expectError(await h.request('GET', '/api/keys', { key }), 'RATE_LIMITED', {
      extras: ['retryAfter', 'budget', 'limit'],
    });
    // …and its stream still opens, three times a minute, with the key or the session alike.
    const opens = [];
    for (let i = 0; i < 3; i++) {
      opens.push(await h.request('GET', path, i === 1 ? { cookie: user.cookie } : { key }));
    }
    expect(opens.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(opens.map((res) => res.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    const refused = await h.request('GET', path, { key });
    expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
  });
});

/**
 * The budgets count in windows that start on the minute: counts taken on either side of a boundary land in
 * two windows, and a test of what one window allows would see a fresh one. Waits for the next window when
 * the current one ends within `ms`.
 */
async function clearOfMinuteEdge(ms = 15_000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
