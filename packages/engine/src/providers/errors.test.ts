import { describe, expect, it } from 'vitest';
import { scrub, toLlmCallError } from './errors.ts';
import { LlmCallError } from './port.ts';

const live = () => new AbortController().signal;
const classify = (error: unknown, signal = live()) =>
  toLlmCallError(error, { provider: 'p', signal, secrets: ['super-secret-value'] });

class APIConnectionTimeoutError extends Error {}
class APIConnectionError extends Error {}

const withCause = (message: string, code: string) =>
  new TypeError(message, { cause: Object.assign(new Error('inner'), { code }) });

describe('toLlmCallError', () => {
  it('maps statuses: 429 rate_limited, 5xx server, 408 timeout, 4xx client', () => {
    const status = (s: number) => classify(Object.assign(new Error(`${s} x`), { status: s }));
    expect(status(429).kind).toBe('rate_limited');
    expect(status(500).kind).toBe('server');
    expect(status(503).kind).toBe('server');
    expect(status(408).kind).toBe('timeout');
    expect(status(401).kind).toBe('client');
    expect(status(404).kind).toBe('client');
    expect(status(429).status).toBe(429);
    expect(status(429).message).toBe('p: HTTP 429: x');
  });

  it('an aborted signal wins over whatever the SDK threw', () => {
    const controller = new AbortController();
    controller.abort();
    const error = classify(Object.assign(new Error('boom'), { status: 500 }), controller.signal);
    expect(error.kind).toBe('aborted');
    expect(classify(new DOMException('gone', 'AbortError')).kind).toBe('aborted');
  });

  it('connection errors: timeouts and refusals are timeout, resets are server', () => {
    expect(classify(new APIConnectionTimeoutError('Request timed out.')).kind).toBe('timeout');
    expect(classify(withCause('fetch failed', 'ECONNREFUSED')).kind).toBe('timeout');
    expect(classify(new APIConnectionError('Connection error.')).kind).toBe('timeout');
    expect(classify(withCause('fetch failed', 'UND_ERR_CONNECT_TIMEOUT')).kind).toBe('timeout');
    expect(classify(withCause('terminated', 'ECONNRESET')).kind).toBe('server');
    expect(classify(new TypeError('terminated')).kind).toBe('server');
  });

  it('unknown failures are server (retryable); LlmCallErrors pass through', () => {
    expect(classify(new SyntaxError('Unexpected token')).kind).toBe('server');
    const original = new LlmCallError('client', 'x');
    expect(classify(original)).toBe(original);
  });

  it('scrubs the given secrets and key-shaped strings, attaches no cause', () => {
    const error = classify(
      Object.assign(new Error('bad key super-secret-value / sk-proj-abc123def456 / AIzaSyAbcdefghijklmn'), {
        status: 401,
      }),
    );
    expect(error.message).toBe('p: HTTP 401: bad key [redacted] / [redacted] / [redacted]');
    expect(error.cause).toBeUndefined();
  });
});

describe('scrub', () => {
  it('removes every occurrence', () => {
    expect(scrub('a-key-1234 and a-key-1234', ['a-key-1234'])).toBe('[redacted] and [redacted]');
  });
});
