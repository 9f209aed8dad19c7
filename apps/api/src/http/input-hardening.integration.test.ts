import { connect } from 'node:net';
import { TEST_PASSWORD } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../testing/http-harness.ts';

/** Writes `payload` on a raw socket and resolves with everything the server sends before it closes. */
function rawExchange(baseUrl: string, payload: string): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
    socket.write(payload);
  });
}

/** Status and JSON body of a raw HTTP/1.1 response. */
function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1],
    body: JSON.parse(body) as { error: { code: string; message: string } },
  };
}

/** A JSON text with raw bytes spliced in where `…` stands. */
const jsonBytes = (text: string, bytes: number[]) => {
  const [before = '', after = ''] = text.split('…');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

/**
 * Byte sequences that are not UTF-8: Latin-1's é, a stray continuation byte, an overlong "/", an encoded
 * surrogate, a sequence cut short, a byte UTF-8 never uses.
 */
const NOT_UTF8 = [[0xe9], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff]];

const INVISIBLE = ['\u200b\u200c\u200d', '\u202e\u2066\u2069', ' \u00ad\ufeff ', '\u2800\u3164'];

describe('input that cannot crash the server', () => {
  let h: Harness;
  let user: TestUser;
  beforeAll(async () => {
    h = await startServer({ env: { REQUEST_TIMEOUT_MS: '1000' } });
    user = await registerUser(h);
  });
  afterAll(async () => {
    await h.close();
  });

  const keyNames = async () =>
    (
      await h.request<{ keys: { name: string }[] }>('GET', '/api/keys', { cookie: user.cookie })
    ).json.keys.map((k) => k.name);

  it('refuses a NUL character in a body, a query or a path with 400 VALIDATION_ERROR, REST and tRPC alike', async () => {
    const body = await h.request('POST', '/api/keys', { cookie: user.cookie, body: { name: 'a\u0000b' } });
    expect(expectError(body, 'VALIDATION_ERROR').details).toEqual([
      expect.objectContaining({ path: 'name', code: 'invalid_characters' }),
    ]);
    const nested = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'fine', config: { description: 'x\u0000' } },
    });
    expect(expectError(nested, 'VALIDATION_ERROR').details?.[0]?.path).toBe('config.description');
    const { key } = await createKey(h, user, { name: 'reader' });
    const query = await h.request('GET', '/v1/verdicts?search=a%00b', { key });
    expect(expectError(query, 'VALIDATION_ERROR').details?.[0]?.path).toBe('search');
    const apiQuery = await h.request('GET', '/api/debates?status=%00', { cookie: user.cookie });
    expectError(apiQuery, 'VALIDATION_ERROR');
    const path = await h.request('GET', '/api/debates/%00', { cookie: user.cookie });
    expectError(path, 'VALIDATION_ERROR');
    const trpcPost = await h.request<{ error: { data: { appCode: string } } }>('POST', '/trpc/keys.create', {
      cookie: user.cookie,
      body: { name: 'x\u0000' },
    });
    expect(trpcPost.status).toBe(400);
    expect(trpcPost.json.error.data.appCode).toBe('VALIDATION_ERROR');
    const input = encodeURIComponent(JSON.stringify({ status: 'x\u0000' }));
    const trpcGet = await h.request('GET', `/trpc/debates.list?input=${input}`, { cookie: user.cookie });
    expect(trpcGet.status).toBe(400);
    expect(await keyNames()).toEqual(['reader']);
  });

  it('refuses JSON nested deeper than 32 levels with 400 before parsing it', async () => {
    const depth = 10_000;
    const res = await h.request('POST', '/api/keys', {
      cookie: user.cookie,
      rawBody: `{"name":"deep","config":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(expectError(res, 'VALIDATION_ERROR').message).toContain('32 levels');
  });

  it('answers a path with bad percent-encoding with the envelope', async () => {
    for (const path of ['/api/debates/%zz', '/v1/verdicts/%E0%A4%A', '/api/%']) {
      expectError(await h.request('GET', path, { cookie: user.cookie }), 'VALIDATION_ERROR');
    }
  });

  it("answers what Node's HTTP parser refuses with the envelope: a malformed request, oversized headers", async () => {
    const malformed = parseRaw(
      (await rawExchange(h.baseUrl, 'GET /v1/me HTTP/1.1\r\nBad Header\r\n\r\n')).text,
    );
    expect(malformed).toMatchObject({ status: 400, contentType: 'application/json' });
    expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
    const huge = parseRaw(
      (await rawExchange(h.baseUrl, `GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))
        .text,
    );
    expect(huge).toMatchObject({ status: 431, contentType: 'application/json' });
    expect(huge.body.error.code).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
  });

  it('cuts off a body shorter than its Content-Length after REQUEST_TIMEOUT_MS with 408, and writes nothing', async () => {
    const request =
      'POST /api/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Cookie: verdict_session=${user.cookie}\r\nContent-Length: 100\r\n\r\n{"name":"never"`;
    const { text, ms } = await rawExchange(h.baseUrl, request);
    const response = parseRaw(text);
    expect(response).toMatchObject({ status: 408, contentType: 'application/json' });
    expect(response.body.error.code).toBe('REQUEST_TIMEOUT');
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(await keyNames()).not.toContain('never');
  });

  it('cuts off a client that stops sending its headers the same way', async () => {
    const { text } = await rawExchange(h.baseUrl, 'GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Slow: 1');
    expect(parseRaw(text)).toMatchObject({ status: 408, body: { error: { code: 'REQUEST_TIMEOUT' } } });
  });

  it.each(INVISIBLE.map((text) => [JSON.stringify(text), text]))(
    'refuses text made only of invisible characters (%s) where text is required',
    async (_label, invisible) => {
      const name = await h.request('POST', '/api/keys', { cookie: user.cookie, body: { name: invisible } });
      expect(expectError(name, 'VALIDATION_ERROR').details?.map((d) => d.path)).toEqual(['name']);
      const question = await h.request('POST', '/api/debates', {
        cookie: user.cookie,
        body: { question: invisible.repeat(10) },
      });
      expect(expectError(question, 'VALIDATION_ERROR').details?.map((d) => d.path)).toEqual(['question']);
      const signUp = await h.request('POST', '/api/auth/register', {
        body: { email: 'invisible@example.com', password: TEST_PASSWORD, name: invisible },
      });
      expect(expectError(signUp, 'VALIDATION_ERROR').details?.map((d) => d.path)).toEqual(['name']);
    },
  );

  it('refuses a REST body that is not a JSON object (null, an array, a number) instead of reading it as {}', async () => {
    const { id } = await createKey(h, user, { name: 'target' });
    for (const rawBody of ['null', '[]', '42', '"name"', 'true']) {
      const patched = await h.request('PATCH', `/api/keys/${id}`, { cookie: user.cookie, rawBody });
      expect(expectError(patched, 'VALIDATION_ERROR').details, rawBody).toEqual([
        { path: '', message: 'Expected a JSON object', code: 'invalid_type' },
      ]);
      expectError(
        await h.request('DELETE', `/api/keys/${id}`, { cookie: user.cookie, rawBody }),
        'VALIDATION_ERROR',
      );
    }
    expect(await keyNames()).toContain('target');
    // No body at all is still the empty object (the document marks this body optional).
    const bare = await h.request<{ name: string }>('PATCH', `/api/keys/${id}`, { cookie: user.cookie });
    expect(bare.status).toBe(200);
    expect(bare.json.name).toBe('target');
  });

  it('refuses an empty query value of a parameter the route reads, instead of reading it as absent', async () => {
    const { key } = await createKey(h, user, { name: 'lister' });
    for (const query of ['limit=', 'page=', 'status=', 'sortOrder=']) {
      const res = await h.request('GET', `/api/debates?${query}`, { cookie: user.cookie });
      expect(
        expectError(res, 'VALIDATION_ERROR').details?.map((d) => d.path),
        query,
      ).toEqual([query.slice(0, -1)]);
    }
    expectError(await h.request('GET', '/v1/verdicts?search=', { key }), 'VALIDATION_ERROR');
    // A parameter no route declares is ignored, empty or not.
    expect((await h.request('GET', '/api/debates?unknown=', { cookie: user.cookie })).status).toBe(200);
  });

  it('refuses a query number not in decimal digits (hex, exponent, padded) rather than reading it with Number()', async () => {
    const { key } = await createKey(h, user, { name: 'counter' });
    for (const value of ['0x1f', '1e3', '0b11', '%207', '+5', 'Infinity']) {
      const res = await h.request('GET', `/v1/verdicts?limit=${value}`, { key });
      expect(
        expectError(res, 'VALIDATION_ERROR').details?.map((d) => d.path),
        value,
      ).toEqual(['limit']);
    }
    const page = await h.request<{ limit: number; page: number }>('GET', '/api/debates?limit=7&page=2', {
      cookie: user.cookie,
    });
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ limit: 7, page: 2 });
  });

  it('keeps visible text that contains invisible characters', async () => {
    const res = await h.request<{ name: string }>('POST', '/api/keys', {
      cookie: user.cookie,
      body: { name: 'zero\u200bwidth' },
    });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('zero\u200bwidth');
  });

  it.each(NOT_UTF8.map((bytes) => [Buffer.from(bytes).toString('hex'), bytes]))(
    'refuses a JSON body that is not valid UTF-8 (%s) with 400 VALIDATION_ERROR and stores nothing',
    async (_hex, bytes) => {
      const email = `bytes-${Buffer.from(bytes).toString('hex')}@example.com`;
      const bodies = {
        '/api/keys': jsonBytes('{"name":"caf…"}', bytes),
        '/api/debates': jsonBytes('{"question":"Should we open a caf… on the corner?"}', bytes),
        '/api/auth/register': jsonBytes(
          `{"email":"${email}","password":"${TEST_PASSWORD}","name":"Ren…e"}`,
          bytes,
        ),
        '/trpc/keys.create': jsonBytes('{"name":"caf…"}', bytes),
      };
      // tRPC's body goes through the same parser, so it is refused in the same envelope.
      for (const [path, body] of Object.entries(bodies)) {
        const res = await h.request('POST', path, { rawBody: body, cookie: user.cookie });
        expect(expectError(res, 'VALIDATION_ERROR').details, path).toEqual([
          { path: '', message: 'Request body is not valid UTF-8', code: 'invalid_encoding' },
        ]);
      }
      expect((await keyNames()).filter((name) => name.startsWith('caf'))).toEqual([]);
      const debates = await h.request<{ total: number }>('GET', '/api/debates', { cookie: user.cookie });
      expect(debates.json.total).toBe(0);
      const login = await h.request('POST', '/api/auth/login', { body: { email, password: TEST_PASSWORD } });
      expect(login.status).toBe(401);
    },
  );

  it('takes a JSON body in UTF-8 of any script, and its byte order mark', async () => {
    const name = 'café ✓ 日本 🙂';
    const res = await h.request('POST', '/api/keys', {
      rawBody: Buffer.from(JSON.stringify({ name })),
      cookie: user.cookie,
    });
    expect(res.status, res.text).toBe(201);
    expect((res.json as { name: string }).name).toBe(name);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"bom"}')]);
    expect((await h.request('POST', '/api/keys', { rawBody: withBom, cookie: user.cookie })).status).toBe(
      201,
    );
  });
});
