import { request as httpRequest } from 'node:http';
import type { CreatedDebate, ShareLink } from '@verdict/contracts';
import { insertStoredDebate } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  type HttpResult,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';

/*
 * The absolute links in answers (shareUrl, streamUrl, upgradeUrl, the API document's server): on a configured
 * PUBLIC_BASE_URL / APP_URL, or, while unset, on the origin the request came to — its Host header, checked,
 * and X-Forwarded-Host/-Proto only from a proxy TRUST_PROXY trusts.
 */

/**
 * The harness's request, but over node:http, which sends the Host header it is given (fetch always sends
 * the URL's own).
 */
function request<T>(h: Harness, method: string, path: string, options: RequestOptions = {}) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(options.cookie ? { cookie: `verdict_session=${options.cookie}` } : {}),
    ...options.headers,
  };
  return new Promise<HttpResult<T>>((resolve, reject) => {
    const req = httpRequest(`${h.baseUrl}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of [value ?? []].flat()) answer.append(name, one);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: answer,
          text,
          json: (text ? JSON.parse(text) : undefined) as T,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A fresh user's own debate (stored as completed: nothing has to run), and the user. */
async function ownDebate(h: Harness): Promise<{ user: TestUser; debateId: string }> {
  const user = await registerUser(h);
  const debateId = await insertStoredDebate(h.core, {
    ownerId: user.session.user.id,
    question: 'Should the share link follow the address the page is on?',
  });
  return { user, debateId };
}

const shareUrlOf = async (h: Harness, headers: Record<string, string> = {}) => {
  const { user, debateId } = await ownDebate(h);
  const res = await request<ShareLink>(h, 'POST', `/api/share/${debateId}`, { cookie: user.cookie, headers });
  expect(res.status, res.text).toBe(200);
  return { url: res.json.shareUrl, token: res.json.token };
};

describe('links while PUBLIC_BASE_URL and APP_URL are unset', () => {
  let h: Harness;
  let port: string;
  beforeAll(async () => {
    h = await startServer({ env: { PORT: '3000' } });
    port = new URL(h.baseUrl).port;
  });
  afterAll(async () => {
    await h.close();
  });

  it('puts shareUrl on the address the request came to: 127.0.0.1, or localhost when the Host says so', async () => {
    expect(h.core.config.appUrl).toBe('http://localhost:3000');
    const direct = await shareUrlOf(h);
    expect(direct.url).toBe(`http://127.0.0.1:${port}/share/${direct.token}`);
    const named = await shareUrlOf(h, { host: `localhost:${port}` });
    expect(named.url).toBe(`http://localhost:${port}/share/${named.token}`);
    const { user, debateId } = await ownDebate(h);
    const trpc = await request<{ result: { data: ShareLink } }>(h, 'POST', '/trpc/sharing.share', {
      cookie: user.cookie,
      headers: { host: `localhost:${port}` },
      body: { debateId },
    });
    expect(trpc.status, trpc.text).toBe(200);
    const { shareUrl, token } = trpc.json.result.data;
    expect(shareUrl).toBe(`http://localhost:${port}/share/${token}`);
  });

  it.each([
    ['a path', 'evil.example/share'],
    ['user info', 'evil.example@127.0.0.1:3000'],
    ['a second host', 'evil.example, 127.0.0.1'],
    ['a bad port', 'evil.example:99999'],
    ['spaces', 'evil example'],
    ['a name the parser would rewrite', '3000'],
  ])('echoes a plausible Host, not one with %s: that link is on the default address', async (_what, host) => {
    const plausible = await shareUrlOf(h, { host: `verdict.example:${port}` });
    expect(plausible.url).toBe(`http://verdict.example:${port}/share/${plausible.token}`);
    const { url, token } = await shareUrlOf(h, { host });
    expect(url).toBe(`http://localhost:3000/share/${token}`);
    expect(url).not.toContain('evil');
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto from a sender TRUST_PROXY does not trust', async () => {
    const { url, token } = await shareUrlOf(h, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(url).toBe(`${h.baseUrl}/share/${token}`);
  });

  it("puts a create's streamUrl on the request's address", async () => {
    const user = await registerUser(h);
    const rest = await request<CreatedDebate>(h, 'POST', '/api/debates', {
      cookie: user.cookie,
      headers: { host: `localhost:${port}` },
      body: { question: 'Should the stream URL follow the address too?', skipCache: true },
    });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.json.streamUrl).toBe(`http://localhost:${port}/api/debates/${rest.json.debateId}/stream`);
  });

  it("puts an error's upgradeUrl on the request's address, over REST and tRPC", async () => {
    const user = await registerUser(h);
    const refused = await request(h, 'POST', '/api/workspaces', {
      cookie: user.cookie,
      body: { name: 'Team', slug: `team-${user.session.user.id.slice(0, 8)}` },
    });
    const error = expectError(refused, 'BYOK_REQUIRED', { extras: ['requiredPlan', 'upgradeUrl'] });
    expect((error as { upgradeUrl?: string }).upgradeUrl).toBe(`${h.baseUrl}/pricing`);

    type TrpcError = { error: { data: { extra?: { upgradeUrl?: string } } } };
    const overTrpc = await request<TrpcError>(h, 'POST', '/trpc/workspaces.create', {
      cookie: user.cookie,
      headers: { host: `localhost:${port}` },
      body: { name: 'Team', slug: `team-${user.session.user.id.slice(0, 8)}` },
    });
    expect(overTrpc.status).toBe(402);
    expect(overTrpc.json.error.data.extra?.upgradeUrl).toBe(`http://localhost:${port}/pricing`);
  });

  it("names the request's address as the API document's server, and only a plausible one", async () => {
    type Doc = { servers: { url: string }[]; info: { contact: { url: string } } };
    const direct = await request<Doc>(h, 'GET', '/openapi.json');
    expect(direct.json.servers).toEqual([{ url: h.baseUrl, 'x-internal': false }]);
    expect(direct.json.info.contact.url).toBe(`${h.baseUrl}/docs`);
    const named = await request<Doc>(h, 'GET', '/openapi.json', { headers: { host: `localhost:${port}` } });
    expect(named.json.servers).toEqual([{ url: `http://localhost:${port}`, 'x-internal': false }]);
    const forged = await request<Doc>(h, 'GET', '/openapi.json', { headers: { host: 'evil.example/x' } });
    expect(forged.json.servers).toEqual([{ url: 'http://localhost:3000', 'x-internal': false }]);
  });
});

describe('links behind a proxy TRUST_PROXY trusts, PUBLIC_BASE_URL and APP_URL unset', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('takes the address the proxy says the client used (its X-Forwarded-Host and -Proto)', async () => {
    const { url, token } = await shareUrlOf(h, {
      'x-forwarded-host': 'verdict.example',
      'x-forwarded-proto': 'https',
    });
    expect(url).toBe(`https://verdict.example/share/${token}`);
  });

  it('refuses an implausible forwarded host as it refuses a Host, and takes the proxy at its word for one', async () => {
    const refused = await shareUrlOf(h, { 'x-forwarded-host': 'evil.example/x' });
    expect(refused.url).toBe(`${h.core.config.appUrl}/share/${refused.token}`);
    // A proxy that sends no host of its own: the request's Host, on the protocol the proxy names.
    const proto = await shareUrlOf(h, { 'x-forwarded-proto': 'https' });
    expect(proto.url).toBe(`https://${new URL(h.baseUrl).host}/share/${proto.token}`);
  });
});

describe('links with APP_URL set', () => {
  const APP_URL = 'https://app.verdict.test';
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ env: { APP_URL } });
  });
  afterAll(async () => {
    await h.close();
  });

  it("always puts the web app's links on APP_URL, whatever the Host, and the API's own on the request's address", async () => {
    for (const host of [undefined, 'localhost:3000', 'evil.example']) {
      const { url, token } = await shareUrlOf(h, host ? { host } : {});
      expect(url).toBe(`${APP_URL}/share/${token}`);
    }
    const user = await registerUser(h);
    const refused = await request(h, 'POST', '/api/workspaces', {
      cookie: user.cookie,
      headers: { host: 'localhost:3000' },
      body: { name: 'Team', slug: `team-${user.session.user.id.slice(0, 8)}` },
    });
    const error = expectError(refused, 'BYOK_REQUIRED', { extras: ['requiredPlan', 'upgradeUrl'] });
    expect((error as { upgradeUrl?: string }).upgradeUrl).toBe(`${APP_URL}/pricing`);
    // PUBLIC_BASE_URL is unset: the stream, on this API, is on the address the request came to.
    const created = await request<CreatedDebate>(h, 'POST', '/api/debates', {
      cookie: user.cookie,
      body: { question: 'Does the stream follow the API address?', skipCache: true },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.streamUrl).toBe(`${h.baseUrl}/api/debates/${created.json.debateId}/stream`);
  });
});
