import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { errorFromResponse, retryAfterMs, VerdictError } from './errors.ts';
import { isIdempotentCreate, isTransient } from './transport.ts';

const answer = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code, message: 'm', limit: 5 } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers },
  });

describe('retries and back-off', () => {
  it('waits what Retry-After says, in seconds or as an HTTP date, capped by the longest wait', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({}), now)).toBeNull();
    expect(backoffDelay(0, 3000)).toBe(3000);
    expect(backoffDelay(5, 120_000, { maxDelayMs: 30_000 })).toBe(30_000);
  });

  it('backs off exponentially with jitter in the upper half when the server names no wait', () => {
    for (const attempt of [0, 1, 2, 3]) {
      const base = 500 * 2 ** attempt;
      const delay = backoffDelay(attempt, null, { initialDelayMs: 500 });
      expect(delay).toBeGreaterThanOrEqual(base / 2);
      expect(delay).toBeLessThanOrEqual(base);
    }
  });

  it('retries a lifting rate limit, an overloaded or unreachable server; never a spent quota or a refusal', async () => {
    expect(isTransient(await errorFromResponse(answer(429, 'RATE_LIMITED')))).toBe(true);
    expect(
      isTransient(await errorFromResponse(answer(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' }))),
    ).toBe(true);
    expect(isTransient(new VerdictError({ status: 0, code: 'CONNECTION_ERROR', message: 'x' }))).toBe(true);
    expect(isTransient(await errorFromResponse(answer(429, 'MONTHLY_LIMIT_REACHED')))).toBe(false);
    expect(isTransient(await errorFromResponse(answer(429, 'QUOTA_EXCEEDED')))).toBe(false);
    expect(isTransient(await errorFromResponse(answer(400, 'VALIDATION_ERROR')))).toBe(false);
    expect(isTransient(await errorFromResponse(answer(500, 'INTERNAL_ERROR')))).toBe(false);
  });

  it('repeats only the creates the server de-duplicates by Idempotency-Key', () => {
    expect(isIdempotentCreate('POST', '/api/debates')).toBe(true);
    expect(isIdempotentCreate('POST', '/v1/verdicts')).toBe(true);
    expect(isIdempotentCreate('POST', '/api/debates/8c5d/fork')).toBe(true);
    expect(isIdempotentCreate('POST', '/api/keys')).toBe(false);
    expect(isIdempotentCreate('POST', '/api/debates/8c5d/outcome')).toBe(false);
  });

  it('reads the envelope into a VerdictError: code, message, extra fields, status and request id', async () => {
    const error = await errorFromResponse(answer(429, 'MONTHLY_LIMIT_REACHED', { 'retry-after': '7' }));
    expect(error).toMatchObject({
      status: 429,
      code: 'MONTHLY_LIMIT_REACHED',
      message: 'm',
      extra: { limit: 5 },
      requestId: 'req-1',
      retryAfterMs: 7000,
    });
    const bare = await errorFromResponse(new Response('<html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(bare).toMatchObject({ status: 502, code: 'HTTP_502', requestId: null });
  });
});
