import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { requestDurations } from './request-durations.ts';

describe('the request histogram kept by hand', () => {
  it("serves exactly what prom-client's own histogram serves for the same observations", async () => {
    const ours = new Registry();
    ours.setDefaultLabels({ role: 'api' });
    const observe = requestDurations(ours);
    const theirs = new Registry();
    theirs.setDefaultLabels({ role: 'api' });
    const reference = new Histogram({
      name: 'verdict_http_request_duration_seconds',
      help: 'Requests answered, by route template (not the path: ids stay out of labels), method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [theirs],
    });
    // Bounds themselves (le is inclusive), between them, past the last, and a label value to escape.
    const observations: [string, string, number, number][] = [
      ['/v1/me', 'GET', 200, 0.001],
      ['/v1/me', 'GET', 200, 0.0042],
      ['/v1/me', 'GET', 200, 10],
      ['/v1/me', 'GET', 429, 12.5],
      ['/api/debates/:id', 'DELETE', 404, 0.3],
      ['unmatched', 'GET', 404, 0],
      ['/api/"quoted"\\path', 'POST', 201, 0.05],
    ];
    for (const [route, method, status, seconds] of observations) {
      observe(route, method, status, seconds);
      reference.observe({ route, method, status: String(status) }, seconds);
    }
    const sorted = (text: string) => text.split('\n').filter(Boolean).sort();
    expect(sorted(await ours.metrics())).toEqual(sorted(await theirs.metrics()));
    expect(await ours.metrics()).toContain(
      'verdict_http_request_duration_seconds_bucket{le="0.001",role="api",route="/v1/me",method="GET",status="200"} 1',
    );
  });
});
