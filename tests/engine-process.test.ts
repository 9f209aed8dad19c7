import type { DebateEvent } from '@verdict/contracts';
import type { Core } from '@verdict/core';
import {
  createTestCore,
  debateReaching,
  eventually,
  insertPendingDebate,
  type TestCore,
  testDatabaseUrl,
  testNatsUrl,
  uniqueSchema,
} from '@verdict/core/testing';
import { type FakeLlmServer, judgeVerdictJson, startFakeLlmServer } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/nats-server.ts';
import { type RunningEngine, startEngine } from './support/processes.ts';

// The engine as its own process, on the real PostgreSQL and NATS, talking to the fake provider through the
// real Anthropic SDK; this test process plays the API's part (writes debates, sends commands, reads events).
describe('a debate in a separate engine process', () => {
  const env = {
    DATABASE_URL: testDatabaseUrl(),
    DATABASE_SCHEMA: uniqueSchema('e2e'),
    NATS_URL: testNatsUrl(),
    NATS_PREFIX: `${uniqueSchema('e2e')}.`,
    JOB_ACK_WAIT_MS: '5000',
    LOG_LEVEL: 'warn',
  };
  let fake: FakeLlmServer;
  let api: TestCore;
  let core: Core;
  let engine: RunningEngine;
  let ownerId: string;
  const metricsToken = 'engine-metrics-token-0123456789';
  let metricsPort: number;

  const finished = (id: string) => debateReaching(core, id);
  const create = (rounds: number) =>
    insertPendingDebate(core, {
      ownerId,
      question: 'Should the support team pilot a four-day week?',
      context: 'Forty agents, two time zones.',
      agents: 3,
      rounds,
    });

  beforeAll(async () => {
    fake = await startFakeLlmServer((request) =>
      request.model.includes('opus')
        ? { text: judgeVerdictJson({ recommendation: 'PROCEED', confidence: 0.72 }) }
        : { text: 'A short, concrete argument.', chunkDelayMs: 40 },
    );
    api = await createTestCore(env);
    core = api.core;
    ownerId = (await core.accounts.createUser({ email: 'e2e@example.com', name: 'E2E' })).id;
    metricsPort = await freePort();
    engine = await startEngine({
      ...env,
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: metricsToken,
      LOG_LEVEL: 'info',
      ANTHROPIC_API_KEY: 'sk-ant-fake-e2e',
      ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
    });
  });
  afterAll(async () => {
    await engine?.stop();
    await (core?.bus as { deleteStreams?: () => Promise<void> } | undefined)?.deleteStreams?.();
    await api?.cleanup();
    await fake?.close();
  });

  it('runs end to end and publishes every event once, in order, as stored', async () => {
    const debate = await create(1);
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'completed', agentCount: 3, roundCount: 1 });
    expect(done?.verdict).toMatchObject({ recommendation: 'PROCEED', confidence: 0.72 });
    expect(fake.count('anthropic')).toBe(5); // three debaters, the judge and the classifier, nothing asked twice
    const stored = await core.db.execute<{ seq: number; type: string }>(
      'select seq, type from debate_events where debate_id = ? order by seq',
      [debate.id],
    );
    const published: DebateEvent[] = [];
    const stop = await core.bus.events.follow(debate.id, 1, 0, (e) => published.push(e));
    await eventually(
      async () => published.length,
      (n) => n >= stored.length,
    );
    stop();
    expect(published.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(published.map((e) => e.type)).toEqual(stored.map((e) => e.type));
    expect(engine.output()).not.toContain('sk-ant-fake-e2e');
  });

  it("serves the node's metrics on its own port to a scraper with the token: its debates and provider calls", async () => {
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\n');
    /** The sum of the series of `family` whose labels include every one of `labels`. */
    const sum = (family: string, labels: string[]) =>
      lines
        .filter((l) => l.startsWith(`${family}{`) && labels.every((label) => l.includes(label)))
        .reduce((total, l) => total + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    const anthropic = ['role="engine"', 'provider="anthropic"'];
    // The first test's debate: three debaters, the judge (the synthesizer task), the classifier.
    expect(
      sum('verdict_llm_calls_total', [...anthropic, 'task="debater"', 'outcome="ok"']),
    ).toBeGreaterThanOrEqual(3);
    expect(
      sum('verdict_llm_calls_total', [...anthropic, 'task="synthesizer"', 'outcome="ok"']),
    ).toBeGreaterThanOrEqual(1);
    expect(sum('verdict_llm_calls_total', [...anthropic, 'task="classifier"'])).toBeGreaterThanOrEqual(1);
    expect(
      sum('verdict_llm_call_duration_seconds_count', [...anthropic, 'task="debater"']),
    ).toBeGreaterThanOrEqual(3);
    expect(sum('verdict_llm_tokens_total', [...anthropic, 'direction="output"'])).toBeGreaterThan(0);
    expect(sum('verdict_llm_cost_usd_total', anthropic)).toBeGreaterThan(0);
    expect(lines).toContain('verdict_engine_slots{role="engine"} 50');
    expect(lines.some((l) => l.startsWith('verdict_engine_debates_running{role="engine"} '))).toBe(true);
    expect(lines.some((l) => l.startsWith('verdict_engine_restores_total{role="engine"} '))).toBe(true);
    expect(lines.some((l) => l.startsWith('nodejs_eventloop_lag_seconds{role="engine"} '))).toBe(true);
    // Its job came through JetStream: its wait from the publish to the claim, and how it ended.
    expect(sum('verdict_engine_queue_wait_seconds_count', [])).toBeGreaterThanOrEqual(1);
    expect(lines.some((l) => l.startsWith('verdict_engine_queue_waiting{role="engine"} '))).toBe(true);
    expect(sum('verdict_engine_debates_finished_total', ['status="completed"'])).toBeGreaterThanOrEqual(1);
    expect(sum('verdict_engine_job_endings_total', ['ending="Completed"'])).toBeGreaterThanOrEqual(1);
    expect(lines.some((l) => l.startsWith('verdict_webhook_outbox_lag_seconds{role="engine"} '))).toBe(true);
  });

  it('answers /health and /ready on the same port without the token, and nothing else there', async () => {
    const base = `http://127.0.0.1:${metricsPort}`;
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', bus: 'ok', migrations: 'ok', draining: false },
    });
    const other = await fetch(`${base}/debates`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('takes pause, inject and resume from another process while the debate runs', async () => {
    const debate = await create(2);
    await debateReaching(core, debate.id, { statuses: ['running'] });
    expect(await core.bus.commands.send(debate.id, { type: 'pause' })).toMatchObject({ accepted: true });
    await debateReaching(core, debate.id, { statuses: ['paused'] });
    const injected = await core.bus.commands.send(debate.id, {
      type: 'inject',
      payload: { content: 'Budget cut 20%' },
    });
    expect(injected).toMatchObject({ accepted: true });
    expect(await core.bus.commands.send(debate.id, { type: 'resume' })).toMatchObject({ accepted: true });
    const done = await finished(debate.id);
    expect(done).toMatchObject({ status: 'completed', roundCount: 2 });
    const round2 = await core.db.execute<{ data: { injected: string[] } }>(
      `select data from debate_events where debate_id = ? and type = 'round.started' order by seq desc limit 1`,
      [debate.id],
    );
    const data = round2[0]?.data;
    expect(typeof data === 'string' ? JSON.parse(data) : data).toEqual({
      round: 2,
      injected: ['Budget cut 20%'],
    });
    // Finished, the debate is no engine's once its job ends: until then its actor refuses as completed.
    await expect
      .poll(() => core.bus.commands.send(debate.id, { type: 'pause' }), { timeout: 10_000 })
      .toBe('no_engine');
  });
});
