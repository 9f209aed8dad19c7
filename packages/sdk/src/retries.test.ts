import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { errorFromResponse, retryAfterMs, VerdictError } from './errors.ts';
import { isIdempotentCreate, isTransient, type RetryWait, send, type TransportConfig } from './transport.ts';

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

describe('the transport’s retries', () => {
  const config = (answers: Response[], waits: RetryWait[] = []) => {
    const sent: string[] = [];
    return {
      sent,
      waits,
      transport: {
        fetch: async (url: string | URL | Request, init?: RequestInit) => {
          sent.push(`${init?.method} ${new URL(String(url)).pathname}`);
          const next = answers.shift();
          if (!next) throw new Error('no answer left');
          return next;
        },
        timeoutMs: 1_000,
        maxRetries: 2,
        backoff: { maxDelayMs: 60_000 },
        waitBeforeRetry: async (wait: RetryWait) => {
          waits.push(wait);
        },
      } satisfies TransportConfig,
    };
  };
  const ok = () => new Response('{"outcomeStatus":"wrong"}', { status: 200 });
  const post = (path: string) =>
    new Request(`http://api.test${path}`, { method: 'POST', body: '{"outcomeStatus":"wrong"}' });

  it('repeats a POST the rate limit refused, after the wait Retry-After names, through waitBeforeRetry', async () => {
    const { transport, sent, waits } = config([answer(429, 'RATE_LIMITED', { 'retry-after': '42' }), ok()]);
    const response = await send(transport, post('/api/debates/8c5d/outcome'));
    expect(await response.json()).toEqual({ outcomeStatus: 'wrong' });
    expect(sent).toEqual(['POST /api/debates/8c5d/outcome', 'POST /api/debates/8c5d/outcome']);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ attempt: 1, delayMs: 42_000, error: { code: 'RATE_LIMITED' } });
  });

  it('never repeats a POST that is not a create after a failure the server may have acted on', async () => {
    const { transport, sent } = config([answer(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' }), ok()]);
    await expect(send(transport, post('/api/debates/8c5d/outcome'))).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(1);
  });

  it('ends the call with the reason waitBeforeRetry rejects with, and sends nothing more', async () => {
    const { transport, sent } = config([answer(429, 'RATE_LIMITED', { 'retry-after': '90' }), ok()]);
    const giveUp = new Error('not waiting 90 s');
    transport.waitBeforeRetry = async () => {
      throw giveUp;
    };
    await expect(send(transport, new Request('http://api.test/api/scores/me'))).rejects.toBe(giveUp);
    expect(sent).toEqual(['GET /api/scores/me']);
  });

  it('fails at once with maxRetries 0, without waiting', async () => {
    const { transport, sent, waits } = config([answer(429, 'RATE_LIMITED', { 'retry-after': '5' }), ok()]);
    await expect(
      send(transport, new Request('http://api.test/api/scores/me'), { maxRetries: 0 }),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterMs: 5_000 });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});
