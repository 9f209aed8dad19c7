import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@verdict/api';
import type { ErrorCode } from '@verdict/contracts';
import {
  createTestCore,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from './support/http.ts';
import { type RunningEngine, type RunningProcess, startApi, startEngine } from './support/processes.ts';
import { readSse } from './support/sse.ts';

// The API and an engine node as separate processes on the real PostgreSQL and NATS, driven over HTTP.
describe('debates end to end over HTTP, with the engine in its own process', () => {
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema('e2e'),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${uniqueSchema('e2e')}.`,
    SIMULATED_FIRST_TOKEN_MS: '150',
    CONCURRENT_DEBATES: '20',
    LOG_LEVEL: 'warn',
  };
  let api: RunningProcess;
  let engine: RunningEngine;
  let db: TestCore;
  let alice: { cookie: string; key: string };
  let bob: { cookie: string; key: string };

  const signUp = async (label: string, plan: 'pro' | 'free' = 'pro') => {
    const user = await registerUser(api.baseUrl, label);
    if (plan === 'pro') await db.core.accounts.setPlan(user.userId, 'pro');
    await db.core.accounts.grantCredits(user.userId, 50);
    const key = await call(api.baseUrl, 'POST', '/api/keys', { cookie: user.cookie, body: { name: label } });
    return { cookie: user.cookie, key: key.body.key as string };
  };
  const waitFor = async (id: string, statuses: string[], key: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await call(api.baseUrl, 'GET', `/v1/verdicts/${id}`, { key });
      if (statuses.includes(res.body?.debate?.status)) return res.body;
      if (Date.now() > deadline) throw new Error(`debate ${id} stayed ${res.body?.debate?.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    api = await startApi({ ...env, LOG_LEVEL: 'info' });
    engine = await startEngine({ ...env, LOG_LEVEL: 'info' });
    db = await createTestCore(env);
    alice = await signUp('alice');
    bob = await signUp('bob');
  });
  afterAll(async () => {
    await engine?.stop();
    await api?.stop();
    await (db?.core.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await db?.cleanup();
  });

  it('creates on /v1, streams with a reconnect mid-debate, and reads the verdict', async () => {
    const created = await call(api.baseUrl, 'POST', '/v1/verdicts', {
      key: alice.key,
      body: { question: 'Should we move our support desk to a four-day week?', mode: 'balanced' },
    });
    expect(created.status).toBe(201);
    const auth = { authorization: `Bearer ${alice.key}` };
    // PORT=0 here, so the configured public base URL is not the address the test reaches: keep the path.
    const streamUrl = `${api.baseUrl}${new URL(created.body.streamUrl).pathname}`;
    expect(streamUrl).toMatch(/\/v1\/verdicts\/[0-9a-f-]{36}\/stream$/);
    const first = await readSse(streamUrl, auth, { stopAfter: 4 });
    expect(first.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lastId = first.messages.at(-1)?.id ?? 0;
    const rest = await readSse(streamUrl, { ...auth, 'Last-Event-ID': String(lastId) });
    expect(rest.closedByServer).toBe(true);
    const all = [...first.messages, ...rest.messages];
    expect(all.map((m) => m.id)).toEqual(all.map((_, i) => i + 1)); // no gap, no duplicate
    expect(all[0]?.event).toBe('debate.started');
    expect(all.at(-1)?.event).toBe('debate.completed');
    const verdictEvent = all.find((m) => m.event === 'verdict');
    expect(Number.isInteger(verdictEvent?.data.confidence)).toBe(true);
    expect(all.filter((m) => m.event === 'rebuttal').length).toBe(5); // balanced: 5 agents, round 2 rebuts
    const read = await waitFor(created.body.debateId, ['completed'], alice.key);
    expect(read.verdict.recommendation).toBe(verdictEvent?.data.recommendation);
    const replay = await readSse(streamUrl, auth);
    expect(replay.messages.map((m) => m.id)).toEqual(all.map((m) => m.id)); // a finished debate at once
  });

  it('pauses and resumes through REST while the engine process runs the debate', async () => {
    const created = await call(api.baseUrl, 'POST', '/api/debates', {
      cookie: alice.cookie,
      body: {
        question: 'Should the platform team adopt trunk-based development?',
        mode: 'thorough',
        agentCount: 2,
        maxRounds: 3,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.debateId;
    await waitFor(id, ['running'], alice.key);
    const paused = await call(api.baseUrl, 'POST', `/api/debates/${id}/commands`, {
      cookie: alice.cookie,
      body: { type: 'pause' },
    });
    expect(paused.body.accepted).toBe(true);
    await waitFor(id, ['paused'], alice.key);
    const chart = await call(api.baseUrl, 'GET', `/api/debates/${id}/statechart`, { cookie: alice.cookie });
    expect(chart.body.current).toEqual({ state: 'running.paused', live: true });
    const resumed = await call(api.baseUrl, 'POST', `/api/debates/${id}/commands`, {
      cookie: alice.cookie,
      body: { type: 'resume' },
    });
    expect(resumed.body.accepted).toBe(true);
    const done = await waitFor(id, ['completed'], alice.key);
    expect(done.debate.roundCount).toBe(3);
    const late = await call(api.baseUrl, 'POST', `/api/debates/${id}/commands`, {
      cookie: alice.cookie,
      body: { type: 'skip' },
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('DEBATE_NOT_RUNNING');
  });

  it("keeps every route of another user's debate at 404", async () => {
    const created = await call(api.baseUrl, 'POST', '/v1/verdicts', {
      key: alice.key,
      body: { question: 'Private question?', mode: 'fast' },
    });
    const id = created.body.debateId;
    const routes: [string, string, Record<string, unknown>?][] = [
      ['GET', `/api/debates/${id}`],
      ['GET', `/v1/verdicts/${id}`],
      ['GET', `/api/debates/${id}/analytics`],
      ['GET', `/api/debates/${id}/statechart`],
      ['POST', `/api/debates/${id}/commands`, { type: 'pause' }],
      ['POST', `/api/debates/${id}/retry`],
      ['POST', `/api/debates/${id}/fork`, {}],
      ['DELETE', `/api/debates/${id}`],
      ['DELETE', `/v1/verdicts/${id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(api.baseUrl, method, path, { key: bob.key, ...(body ? { body } : {}) });
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    const stream = await readSse(`${api.baseUrl}/v1/verdicts/${id}/stream`, {
      authorization: `Bearer ${bob.key}`,
    });
    expect(stream.status).toBe(404);
    await waitFor(id, ['completed'], alice.key);
  });

  it('serves the same procedures to a typed tRPC client, with typed error codes', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${api.baseUrl}/trpc`, headers: { authorization: `Bearer ${alice.key}` } })],
    });
    const page = await client.debates.list.query({ limit: 5 });
    expect(page.debates.length).toBeGreaterThan(0);
    const first = page.debates[0];
    expect(first?.ownerId).toBeTypeOf('string');
    let code: ErrorCode | undefined;
    try {
      await client.debates.command.mutate({ id: first?.id ?? '', type: 'pause' });
    } catch (err) {
      if (err instanceof TRPCClientError) code = (err.data as { appCode?: ErrorCode }).appCode;
    }
    expect(code).toBe('DEBATE_NOT_RUNNING');
  });
});
