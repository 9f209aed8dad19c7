import { Writable } from 'node:stream';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { ShareLink } from '@verdict/contracts';
import { createLogger, installTracing, type Tracing, unsubscribeToken } from '@verdict/core';
import { insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Harness, registerUser, startServer } from '../testing/http-harness.ts';
import { consoleDist } from './console/assets.ts';

const LINK_SECRET = 'unsubscribe-links-secret-for-log-tests-0123';

// Every secret a caller hands the service, or the service hands out, goes through requests whose every log
// line (and every span, tracing on) is captured here: none may appear in any of them, on success or failure.
describe('secrets in the logs', () => {
  let h: Harness;
  let logged = '';
  // Installed before the server is built: it adds its request spans only where a provider is installed.
  const spans = new InMemorySpanExporter();
  let tracing: Tracing;

  beforeAll(async () => {
    tracing = installTracing({
      serviceName: 'verdict-log-secrets-test',
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    });
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    // Debug: whatever the server would ever say about a request.
    const logger = createLogger({ level: 'debug', pretty: false, destination });
    h = await startServer({ logger, env: { EMAIL_LINK_SECRET: LINK_SECRET } });
  });
  afterAll(async () => {
    await h?.close();
    await tracing?.shutdown();
  });

  it('never logs a password, session, API key, webhook secret or provider key', async () => {
    const password = `pw-${crypto.randomUUID()}`;
    const user = await registerUser(h, { password });
    const wrongPassword = `wrong-${crypto.randomUUID()}`;
    await h.request('POST', '/api/auth/login', { body: { email: user.email, password: wrongPassword } });
    const login = await h.request('POST', '/api/auth/login', { body: { email: user.email, password } });
    expect(login.status).toBe(200);
    // A body the parser refuses, with the password in it.
    await h.request('POST', '/api/auth/login', {
      rawBody: `{"email": "${user.email}", "password": "${password}"`,
    });

    const { key } = await createKey(h, user);
    expect((await h.request('GET', '/v1/me', { key })).status).toBe(200);
    const forgedKey = `${key.slice(0, -4)}zzzz`;
    expect((await h.request('GET', '/v1/me', { key: forgedKey })).status).toBe(401);
    await h.request('GET', '/v1/me', { key, keyHeader: 'x-api-key' });

    const webhook = await h.request<{ secret: string }>('POST', '/api/webhooks', {
      cookie: user.cookie,
      body: { url: 'https://hooks.example.com/verdict', events: ['debate.completed'] },
    });
    expect(webhook.status).toBe(201);

    const providerKey = `sk-ant-${crypto.randomUUID()}`;
    await h.core.accounts.setPlan(user.session.user.id, 'byok');
    await h.request('POST', '/api/debates', {
      cookie: user.cookie,
      headers: { 'x-provider-keys': `anthropic:${providerKey}` },
      body: { question: 'Does a provider key ever reach the logs?' },
    });
    // A malformed header with the key in it.
    await h.request('POST', '/api/debates', {
      cookie: user.cookie,
      headers: { 'x-provider-keys': `{"anthropic": "${providerKey}"` },
      body: { question: 'And when the header is malformed?' },
    });

    // Every request above has its line: the check below reads what was written, not an empty log.
    const lines = logged.split('\n').filter(Boolean);
    expect(lines.filter((line) => line.includes('/api/auth/login')).length).toBe(3);
    expect(lines.filter((line) => line.includes('/v1/me')).length).toBe(3);
    expect(lines.filter((line) => line.includes('/api/debates')).length).toBe(2);
    const secrets = {
      password,
      wrongPassword,
      session: user.cookie,
      key,
      forgedKey,
      webhookSecret: webhook.json.secret,
      providerKey,
    };
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(logged.includes(value), `${name} in the logs`).toBe(false);
    }
  });

  it('never logs or traces a secret that arrives in a URL, and still names the route of its line', async () => {
    const owner = await registerUser(h);
    const debateId = await insertStoredDebate(h.core, {
      ownerId: owner.session.user.id,
      question: 'Does a share token ever reach the logs?',
    });
    const link = await h.request<ShareLink>('POST', `/api/share/${debateId}`, { cookie: owner.cookie });
    expect(link.status).toBe(200);
    const { token } = link.json;
    const before = logged.length;

    // The share token in the path: the read (REST and tRPC), its preflight, a method the route has not, and the
    // share page of the console when this process serves it.
    expect((await h.request('GET', `/api/public/debates/${token}`)).status).toBe(200);
    const trpcInput = encodeURIComponent(JSON.stringify({ token }));
    expect((await h.request('GET', `/trpc/sharing.publicDebate?input=${trpcInput}`)).status).toBe(200);
    const preflight = { origin: 'https://embed.example', 'access-control-request-method': 'GET' };
    expect((await h.request('OPTIONS', `/api/public/debates/${token}`, { headers: preflight })).status).toBe(
      204,
    );
    expect((await h.request('DELETE', `/api/public/debates/${token}`)).status).toBe(405);
    const consoleServed = consoleDist() !== null;
    if (consoleServed) expect((await h.request('GET', `/share/${token}`)).status).toBe(200);

    // The unsubscribe link's token, in the query beside parameters that stay readable.
    const userId = owner.session.user.id;
    const unsubscribe = unsubscribeToken(LINK_SECRET, userId, 'comments');
    const unsubscribed = await h.request(
      'GET',
      `/api/unsubscribe?userId=${userId}&type=comments&token=${unsubscribe}`,
    );
    expect(unsubscribed.status).toBe(200);

    // An API key a client wrongly put in the query, under the names clients use, on routes that declare none.
    const { key } = await createKey(h, owner);
    expect((await h.request('GET', `/v1/me?api_key=${key}`)).status).toBe(401);
    await h.request('GET', `/v1/usage?limit=5&apiKey=${key}&access_token=${key}`);
    await h.request('GET', `/api/debates?page=1&key=${key}`);
    await h.request('GET', `/no/such/route?token=${token}&password=${key}`);

    const lines = logged
      .slice(before)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { url?: string });
    const urls = lines.map((line) => line.url).filter((url): url is string => url !== undefined);
    // Each line still says which route and which other parameters it was.
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/public/debates/[redacted]',
        `/trpc/sharing.publicDebate?input=[redacted]`,
        `/api/unsubscribe?userId=${userId}&type=comments&token=[redacted]`,
        '/v1/me?api_key=[redacted]',
        '/v1/usage?limit=5&apiKey=[redacted]&access_token=[redacted]',
        '/api/debates?page=1&key=[redacted]',
        '/no/such/route?token=[redacted]&password=[redacted]',
        ...(consoleServed ? ['/share/[redacted]'] : []),
      ]),
    );
    expect(urls.filter((url) => url === '/api/public/debates/[redacted]')).toHaveLength(3);
    const paths = spans.getFinishedSpans().map((span) => span.attributes['url.path']);
    expect(paths).toContain('/api/public/debates/[redacted]');

    const traced = JSON.stringify(spans.getFinishedSpans().map((span) => [span.name, span.attributes]));
    for (const [name, value] of Object.entries({ token, unsubscribe, key })) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(logged.includes(value), `${name} in the logs`).toBe(false);
      expect(traced.includes(value), `${name} in a span`).toBe(false);
    }
  });
});
