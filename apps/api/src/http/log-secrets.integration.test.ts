import { Writable } from 'node:stream';
import { createLogger } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Harness, registerUser, startServer } from '../testing/http-harness.ts';

// Every secret a caller hands the service, or the service hands out, goes through requests whose every log
// line is captured here: none may appear in any of them, on success or failure.
describe('secrets in the logs', () => {
  let h: Harness;
  let logged = '';

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    // Debug: whatever the server would ever say about a request.
    const logger = createLogger({ level: 'debug', pretty: false, destination });
    h = await startServer({ logger });
  });
  afterAll(async () => {
    await h?.close();
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
});
