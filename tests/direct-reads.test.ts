import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectBody } from './support/api-client.ts';
import { exchange, INCIDENTAL_HEADERS } from './support/raw-http.ts';
import { MODES, type Stack, signUpPro, startStack } from './support/stack.ts';

/**
 * Plain reads answered directly (http/direct-reads.ts) on uWebSockets.js and on Node's http, and the
 * reference: Node's http with DIRECT_READS off, where every request goes through Fastify.
 */
const SERVERS = ['uws', 'node', 'fastify'] as const;
type Server = (typeof SERVERS)[number];
const ENV: Record<Server, Record<string, string>> = {
  uws: { STREAMS: 'uws' },
  node: { STREAMS: 'node' },
  fastify: { STREAMS: 'node', DIRECT_READS: 'off' },
};

const METRICS_TOKEN = 'direct-reads-metrics-token-0123456789';

type Answer = { status: string; headers: [string, string][]; body: unknown };

/**
 * Values that differ between two accounts or two moments, not between two servers: ids, keys, emails,
 * times. Everything else of an answer must be the same.
 */
function masked(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/vrd_[A-Za-z0-9_-]+/g, '<key>')
    .replace(/[a-z0-9.+-]+@example\.com/g, '<email>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/"retryAfter":\d+/g, '"retryAfter":"<seconds>"')
    .replace(/retry in \d+ s/g, 'retry in <seconds> s');
}

/** One request on a connection of its own, and its answer as it came: every header line, in order. */
async function request(baseUrl: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const answer = await exchange(baseUrl, `GET ${path} HTTP/1.1\r\nHost: test\r\n${lines.join('')}\r\n`);
  const answerHeaders = answer.headers
    .map(([name, value]): [string, string] => {
      if (name === 'x-request-id') return [name, '<id>'];
      if (name === 'x-ratelimit-reset' || name === 'retry-after') return [name, '<seconds>'];
      return [name, value];
    })
    .filter(([name]) => !INCIDENTAL_HEADERS.has(name));
  const { body } = answer;
  return { status: answer.status, headers: answerHeaders, body: body ? JSON.parse(masked(body)) : body };
}

/**
 * The plain reads answered without Fastify (GET /v1/me, /v1/health, /api/keys …), on either server, must be
 * what Fastify answers, line for line: status, every header in order, body, the 401s and 429s, the
 * request's log line, its usage count and its metric; requests that are not plain (a query, a cookie, an
 * Origin, a proxy's headers) go through Fastify on every server, and are answered alike.
 */
describe.each(MODES)('plain reads on uWebSockets.js, as Fastify answers them (%s)', (mode) => {
  const stacks = {} as Record<Server, Stack>;
  const keys = {} as Record<Server, string>;

  beforeAll(async () => {
    const started = await Promise.all(
      SERVERS.map((server) =>
        startStack(mode, `direct${server}`, { ...ENV[server], METRICS_TOKEN: METRICS_TOKEN }),
      ),
    );
    for (const [i, server] of SERVERS.entries()) {
      const stack = started[i] as Stack;
      stacks[server] = stack;
      // The same label on each: the name is in the answers compared.
      const user = await signUpPro(stack, 'direct');
      // Polling the usage read would spend the plan's budget of requests a minute.
      await stack.setRateLimit(user.email, 100_000);
      keys[server] = expectBody(await user.client.POST('/api/keys', { body: { name: 'direct' } }), 201).key;
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(stacks).map((stack) => stack.stop()));
  });

  /**
   * The same requests, in the same order, to each server (each its own account): the answers compared, the
   * header lines in order, the bodies as JSON (an object's keys may come in another order: usage's endpoints
   * are in the order their counts were written).
   */
  const onEach = async (path: string, headers: (server: Server) => Record<string, string>) => {
    const answers = {} as Record<Server, Answer>;
    for (const server of SERVERS)
      answers[server] = await request(stacks[server].baseUrl, path, headers(server));
    for (const server of ['uws', 'node'] as const) {
      const { body, ...head } = answers[server];
      const { body: fastifyBody, ...fastifyHead } = answers.fastify;
      expect(JSON.stringify(head, null, 1), `GET ${path} on ${server}`).toBe(
        JSON.stringify(fastifyHead, null, 1),
      );
      expect(body, `GET ${path} on ${server}`).toEqual(fastifyBody);
    }
    return answers.fastify;
  };
  const bearer = (server: Server) => ({ authorization: `Bearer ${keys[server]}` });

  it('answers reads by key, without one and with a bad one, line for line as Fastify', async () => {
    const me = await onEach('/v1/me', bearer);
    expect(me.status).toBe('HTTP/1.1 200 OK');
    expect(me.headers.map(([name]) => name)).toEqual([
      'content-security-policy',
      'cross-origin-resource-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
      'x-request-id',
      'vary',
      'content-type',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ]);
    expect(me.body).toMatchObject({ id: '<uuid>', email: '<email>', plan: 'pro' });
    await onEach('/v1/me', (server) => ({ 'x-api-key': keys[server] as string }));
    expect((await onEach('/v1/me', () => ({}))).status).toBe('HTTP/1.1 401 Unauthorized');
    const badKey = await onEach('/v1/me', () => ({ authorization: 'Bearer vrd_not-a-key' }));
    expect(badKey.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Invalid or revoked API key' } });
    const health = await onEach('/v1/health', () => ({}));
    expect(health.headers).toContainEqual(['access-control-allow-origin', '*']);
    await onEach('/v1/health', bearer);
    for (const path of [
      '/v1/usage',
      '/api/keys',
      '/api/scores/me',
      '/api/billing/balance',
      '/api/workspaces',
    ]) {
      expect((await onEach(path, bearer)).status, path).toBe('HTTP/1.1 200 OK');
    }
    expect((await onEach('/api/auth/session', () => ({}))).body).toBeDefined();
  });

  it('leaves requests that are not plain to Fastify, which answers them alike on every server', async () => {
    const elsewhere = { origin: 'https://elsewhere.example' };
    await onEach('/v1/me?unused=1', bearer);
    await onEach('/v1/health', () => elsewhere);
    await onEach('/v1/me', (server) => ({ ...bearer(server), ...elsewhere }));
    await onEach('/v1/me', (server) => ({ ...bearer(server), cookie: 'verdict_session=none' }));
    await onEach('/v1/me', (server) => ({ ...bearer(server), 'x-forwarded-for': '203.0.113.9' }));
    await onEach('/v1/me/', bearer);
  });

  it('refuses a key past its limit with the same 429 and Retry-After', async () => {
    const limited = {} as Record<Server, string>;
    for (const server of SERVERS) {
      const client = apiClient(stacks[server].baseUrl, { key: keys[server] });
      const body = { name: 'limited', config: { rateLimit: 2 } };
      limited[server] = expectBody(await client.POST('/api/keys', { body }), 201).key;
    }
    // Request budgets are counted in one-minute windows aligned to the clock: the requests must share one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await sleep(left + 100);
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await onEach('/v1/me', (server) => ({ 'x-api-key': limited[server] as string })));
    }
    expect(answers.map((answer) => answer.status)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 429 Too Many Requests',
    ]);
    expect(answers[2]?.headers).toContainEqual(['retry-after', '<seconds>']);
    expect(answers[2]?.body).toMatchObject({ error: { code: 'RATE_LIMITED', retryAfter: '<seconds>' } });
  });

  it('writes the same log line, counts the key and measures the route', async () => {
    const lines = {} as Record<Server, Record<string, unknown>>;
    for (const server of SERVERS) {
      const stack = stacks[server];
      const requestId = `direct-line-${server}-${mode}`;
      await request(stack.baseUrl, '/v1/health', { ...bearer(server), 'x-request-id': requestId });
      const line = await eventually(
        () =>
          stack.api
            .output()
            .split('\n')
            .find((each) => each.includes(`"clientRequestId":"${requestId}"`)),
        (found) => found !== undefined,
      );
      const { reqId, ms, time, pid, hostname, clientRequestId, msg, ...rest } = JSON.parse(line as string);
      expect(typeof reqId, server).toBe('string');
      expect(typeof ms, server).toBe('number');
      expect(msg, server).toBe(`GET /v1/health 200 ${ms} ms`);
      expect(clientRequestId).toBe(requestId);
      lines[server] = rest;
    }
    expect(lines.uws).toEqual(lines.fastify);
    expect(lines.node).toEqual(lines.fastify);
    expect(lines.fastify).toMatchObject({ method: 'GET', url: '/v1/health', status: 200 });

    for (const server of SERVERS) {
      const client = apiClient(stacks[server].baseUrl, { key: keys[server] });
      // /v1/health takes no credentials: its keyed requests are counted once answered (usage-counting.ts).
      const usage = await eventually(
        async () => expectBody(await client.GET('/v1/usage'), 200),
        (read) => (read.byEndpoint['/v1/health'] ?? 0) >= 2,
      );
      expect(usage.byEndpoint['/v1/health'], server).toBe(2);
      const metrics = await fetch(`${stacks[server].baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = await metrics.text();
      const series = text
        .split('\n')
        .filter((line) => line.startsWith('verdict_http_request_duration_seconds_count{'))
        .filter((line) => line.includes('route="/v1/me"') && line.includes('status="200"'));
      expect(series, server).toHaveLength(1);
      expect(Number(series[0]?.split(' ').at(-1)), server).toBeGreaterThanOrEqual(3);
    }
  });
});
