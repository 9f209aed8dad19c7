import { eventually, startWebhookReceiver, type WebhookReceiver } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { freePort } from './support/nats-server.ts';
import {
  alertRules,
  dashboardExpressions,
  familiesOf,
  unexposed,
  verdictNamesIn,
} from './support/observability-files.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

const TOKEN = 'metrics-e2e-token-0123456789';

/** The sum of the series of `family` whose labels include every one of `labels`; undefined when none. */
function sum(text: string, family: string, labels: string[] = []): number | undefined {
  const values = text
    .split('\n')
    .filter(
      (l) => (l.startsWith(`${family}{`) || l.startsWith(`${family} `)) && labels.every((x) => l.includes(x)),
    )
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
}

// Each mode's scrapes after a debate, a webhook delivery and refused sign-ins: every family the operations
// issue lists, with plausible values; and the dashboard and alert rules name only families these expose.
describe.each(MODES)('the metrics of a running service (%s)', (mode) => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let user: ProUser;
  let engineUrl: string | null = null;

  beforeAll(async () => {
    const metricsPort = await freePort();
    stack = await startStack(mode, 'metrics', {
      METRICS_TOKEN: TOKEN,
      // Read by engine processes only: in embedded mode the API's /metrics serves the node's.
      METRICS_PORT: String(metricsPort),
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ENGINE_WEBHOOK_INTERVAL_MS: '100',
    });
    if (mode === 'distributed') engineUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    receiver = await startWebhookReceiver();
    user = await signUpPro(stack, 'metrics');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  const scrape = async (url: string) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const scrapeApi = () => scrape(`${stack.baseUrl}/metrics`);
  /** The engine node's scrape: its process's own, or the embedded API's, which carries the node's. */
  const scrapeEngine = () => scrape(engineUrl ?? `${stack.baseUrl}/metrics`);

  it('shows a debate, its webhook delivery and refused sign-ins on the scrapes of both processes', async () => {
    expectBody(
      await user.client.POST('/api/webhooks', {
        body: { url: `${receiver.url}/verdict`, events: ['debate.completed'] },
      }),
      201,
    );
    const { debateId } = expectBody(
      await user.client.POST('/api/debates', {
        body: { question: 'Should the metrics come before the dashboards?', skipCache: true },
      }),
      201,
    );
    await eventually(
      () => receiver.received.length,
      (n) => n >= 1,
      30_000,
    );
    // Failed sign-ins until one is refused. The budget (10 an email) is counted in fixed 15-minute windows:
    // 11 attempts across a window's end split between two windows and none was refused (a CI run at :00).
    // Twice the budget and one more always put 11 in one window.
    let refused = false;
    for (let i = 0; i < 21 && !refused; i++) {
      const { response } = await apiClient(stack.baseUrl).POST('/api/auth/login', {
        body: { email: user.email, password: 'not-the-password' },
      });
      refused = response.status === 429;
    }
    expect(refused).toBe(true);

    const api = await eventually(
      scrapeApi,
      (text) => (sum(text, 'verdict_debates', ['status="completed"']) ?? 0) >= 1,
    );
    expect(
      sum(api, 'verdict_http_request_duration_seconds_count', [
        'role="api"',
        'route="/api/debates"',
        'method="POST"',
        'status="201"',
      ]),
    ).toBe(1);
    expect(sum(api, 'verdict_rate_limited_total', ['limit="signIns"'])).toBeGreaterThanOrEqual(1);
    expect(sum(api, 'verdict_rate_limited_total', ['limit="requests"'])).toBe(0);
    expect(sum(api, 'verdict_debates', ['status="failed"'])).toBe(0);
    expect(sum(api, 'verdict_sse_streams_open')).toBeGreaterThanOrEqual(0);
    expect(sum(api, 'nodejs_eventloop_lag_seconds', ['role="api"'])).toBeGreaterThanOrEqual(0);
    expect(sum(api, 'nodejs_heap_size_used_bytes', ['role="api"'])).toBeGreaterThan(1_000_000);
    expect(api).not.toContain(debateId);

    // The delivery is counted once its attempt is recorded, a moment after the receiver has it.
    const engine = await eventually(
      scrapeEngine,
      (text) => (sum(text, 'verdict_webhook_delivery_attempts_total', ['outcome="delivered"']) ?? 0) >= 1,
    );
    const node = ['role="engine"'];
    expect(
      sum(engine, 'verdict_llm_calls_total', [...node, 'task="debater"', 'outcome="ok"']),
    ).toBeGreaterThan(0);
    expect(
      sum(engine, 'verdict_llm_calls_total', [...node, 'task="synthesizer"', 'outcome="ok"']),
    ).toBeGreaterThan(0);
    expect(sum(engine, 'verdict_llm_call_duration_seconds_count', node)).toBeGreaterThan(0);
    expect(sum(engine, 'verdict_llm_tokens_total', [...node, 'direction="output"'])).toBeGreaterThan(0);
    expect(sum(engine, 'verdict_llm_cost_usd_total', node)).toBeGreaterThanOrEqual(0);
    expect(sum(engine, 'verdict_engine_queue_wait_seconds_count', node)).toBeGreaterThanOrEqual(1);
    expect(sum(engine, 'verdict_engine_queue_waiting', node)).toBeGreaterThanOrEqual(0);
    expect(
      sum(engine, 'verdict_engine_debates_finished_total', [...node, 'status="completed"']),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(engine, 'verdict_engine_debates_finished_total', [...node, 'status="failed"'])).toBe(0);
    expect(
      sum(engine, 'verdict_engine_job_endings_total', [...node, 'ending="Completed"']),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(engine, 'verdict_engine_lease_handovers_total', [...node, 'reason="holder_gone"'])).toBe(0);
    expect(sum(engine, 'verdict_engine_lease_handovers_total', [...node, 'reason="lease_expired"'])).toBe(0);
    expect(sum(engine, 'verdict_engine_restores_total', node)).toBe(0);
    expect(sum(engine, 'verdict_engine_debates_running', node)).toBe(0);
    expect(sum(engine, 'verdict_engine_slots', node)).toBeGreaterThan(0);
    expect(sum(engine, 'verdict_webhook_delivery_attempts_total', [...node, 'outcome="failed"'])).toBe(0);
    expect(sum(engine, 'verdict_webhook_outbox_lag_seconds', node)).toBeGreaterThanOrEqual(0);
    expect(sum(engine, 'verdict_webhook_delivery_lag_seconds', node)).toBeGreaterThanOrEqual(0);
    expect(sum(engine, 'verdict_embeddings_pending', node)).toBeGreaterThanOrEqual(0);
    expect(sum(engine, 'verdict_extractions_pending', node)).toBe(0);
    expect(sum(engine, 'verdict_scheduler_runs_total', [...node, 'outcome="created"'])).toBe(0);
    // The workers' Effect metrics, through the bridge: the fan-out took the debate's outbox row.
    expect(
      sum(engine, 'verdict_engine_worker_rows_handled_total', [...node, 'worker="webhook-dispatch"']),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sum(engine, 'verdict_engine_worker_passes_total', [...node, 'worker="webhook-dispatch"']),
    ).toBeGreaterThan(0);
    expect(sum(engine, 'verdict_engine_worker_pass_failures_total', [...node, 'worker="reconciler"'])).toBe(
      0,
    );
    expect(sum(engine, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('names in the dashboard and the alert rules only metric families the processes serve', async () => {
    const families = new Map([...familiesOf(await scrapeApi()), ...familiesOf(await scrapeEngine())]);
    const named = verdictNamesIn([...dashboardExpressions(), ...alertRules().map((r) => r.expr)]);
    expect(named.size).toBeGreaterThan(20);
    expect(unexposed(named, families)).toEqual([]);
  });
});
