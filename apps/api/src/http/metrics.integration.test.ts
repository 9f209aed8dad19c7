import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type Harness, registerUser, startServer } from '../testing/http-harness.ts';

const TOKEN = 'metrics-token-for-the-test-0123';

/** The value of one series in a Prometheus text exposition, or undefined when it is absent. */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  let h: Harness;
  let without: Harness;

  beforeAll(async () => {
    h = await startServer({ env: { METRICS_TOKEN: TOKEN } });
    without = await startServer({ env: { DATABASE_SCHEMA: h.schema } });
  });
  afterAll(async () => {
    await without?.close();
    await h?.close();
  });

  const scrape = async () => {
    const res = await h.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text;
  };

  it('counts answered requests by route template, method and status, never by raw path', async () => {
    await h.request('GET', '/v1/health');
    await h.request('GET', '/v1/health');
    const id = '00000000-0000-4000-8000-000000000000';
    const user = await registerUser(h);
    await h.request('GET', `/api/debates/${id}`, { cookie: user.cookie });
    await h.request('GET', '/no/such/path');
    const text = await scrape();
    const health =
      'verdict_http_request_duration_seconds_count{role="api",route="/v1/health",method="GET",status="200"}';
    expect(seriesValue(text, health)).toBe(2);
    expect(
      seriesValue(
        text,
        'verdict_http_request_duration_seconds_count{role="api",route="/api/debates/:id",method="GET",status="404"}',
      ),
    ).toBe(1);
    expect(
      seriesValue(
        text,
        'verdict_http_request_duration_seconds_count{role="api",route="unmatched",method="GET",status="404"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(id);
    // Node's own: event-loop lag and heap, labelled with the process's role.
    expect(seriesValue(text, 'nodejs_eventloop_lag_seconds{role="api"}')).toBeGreaterThanOrEqual(0);
    expect(seriesValue(text, 'nodejs_heap_size_used_bytes{role="api"}')).toBeGreaterThan(1_000_000);
  });

  it('counts SSE streams while they are open', async () => {
    const user = await registerUser(h);
    const open = async () => seriesValue(await scrape(), 'verdict_sse_streams_open{role="api"}') as number;
    const before = await open();
    const controller = new AbortController();
    const res = await fetch(`${h.baseUrl}/api/notifications/stream`, {
      headers: { cookie: `verdict_session=${user.cookie}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(await open()).toBe(before + 1);
    controller.abort();
    const deadline = Date.now() + 5000;
    while ((await open()) !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await open()).toBe(before);
  });

  it('refuses a scraper without the token, and does not exist where no token is configured', async () => {
    expectError(await h.request('GET', '/metrics'), 'UNAUTHORIZED');
    expectError(
      await h.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } }),
      'UNAUTHORIZED',
    );
    expectError(
      await without.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }),
      'NOT_FOUND',
    );
  });
});
