import { ApiKey, ApiKeyList, CreatedApiKey } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Where a validation error points, in the order the server lists them. */
const detailPaths = (error: { details?: { path: string }[] | undefined }) =>
  (error.details ?? []).map((d) => d.path);

describe('API key routes', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  /** A key of each user, used as credentials by the key-auth variants. */
  let aliceKey: CreatedApiKey;
  let bobKey: CreatedApiKey;

  beforeAll(async () => {
    h = await startServer();
    [alice, bob] = await Promise.all([registerUser(h), registerUser(h)]);
    // Generous per-key limits: this file exercises key management, not rate limiting.
    aliceKey = await createKey(h, alice, { name: 'alice auth', config: { rateLimit: 10_000 } });
    bobKey = await createKey(h, bob, { name: 'bob auth', config: { rateLimit: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  /** The same route under both credential kinds the /api family accepts. */
  const authModes: [string, () => RequestOptions][] = [
    ['session cookie', () => ({ cookie: alice.cookie })],
    ['API key', () => ({ key: aliceKey.key })],
  ];

  describe.each(authModes)('with a %s', (_label, auth) => {
    it('creates a key: 201, a vrd_ key whose first 16 characters are the keyPrefix, config null when absent', async () => {
      const res = await h.request('POST', '/api/keys', { ...auth(), body: { name: 'ci' } });
      expect(res.status).toBe(201);
      const created = CreatedApiKey.parse(res.json);
      expect(created.key).toMatch(/^vrd_[A-Za-z0-9_-]{32}$/);
      expect(created.keyPrefix).toBe(created.key.slice(0, 16));
      expect(created.name).toBe('ci');
      expect(created.config).toBeNull();
      expect(Date.parse(created.createdAt)).not.toBeNaN();
    });

    it('normalises a partial config: every absent field comes back null', async () => {
      const res = await h.request('POST', '/api/keys', {
        ...auth(),
        body: { name: 'partial', config: { preset: 'economy', routingOverrides: { debater: 'haiku' } } },
      });
      expect(res.status).toBe(201);
      expect(CreatedApiKey.parse(res.json).config).toEqual({
        preset: 'economy',
        routingOverrides: { debater: 'haiku' },
        allowedProviders: null,
        rateLimit: null,
        description: null,
      });
    });

    it('lists active keys with id, name, keyPrefix, config and createdAt, never the key or its hash', async () => {
      const created = await createKey(h, alice, { name: 'listed' });
      const res = await h.request('GET', '/api/keys', auth());
      expect(res.status).toBe(200);
      const list = ApiKeyList.parse(res.json);
      const listed = list.keys.find((k) => k.id === created.id);
      expect(listed).toEqual({
        id: created.id,
        name: 'listed',
        keyPrefix: created.keyPrefix,
        config: null,
        createdAt: created.createdAt,
      });
      for (const key of (res.json as { keys: Record<string, unknown>[] }).keys) {
        expect(Object.keys(key).sort()).toEqual(['config', 'createdAt', 'id', 'keyPrefix', 'name']);
      }
      expect(res.text).not.toContain(created.key);
      expect(res.text).not.toContain(aliceKey.key);
      expect(res.text).not.toMatch(/"key"|"keyHash"|"key_hash"/);
    });

    it('renames a key with PATCH and keeps its config', async () => {
      const created = await createKey(h, alice, { name: 'old name', config: { rateLimit: 7 } });
      const res = await h.request('PATCH', `/api/keys/${created.id}`, {
        ...auth(),
        body: { name: 'new name' },
      });
      expect(res.status).toBe(200);
      const updated = ApiKey.parse(res.json);
      expect(updated.name).toBe('new name');
      expect(updated.config?.rateLimit).toBe(7);
      expect(res.text).not.toContain(created.key);
    });

    it('replaces the whole config on PATCH: fields not sent become null (no merge)', async () => {
      const created = await createKey(h, alice, { name: 'cfg' });
      const first = await h.request('PATCH', `/api/keys/${created.id}`, {
        ...auth(),
        body: { config: { rateLimit: 5, description: 'x' } },
      });
      expect(ApiKey.parse(first.json).config).toMatchObject({ rateLimit: 5, description: 'x' });
      const second = await h.request('PATCH', `/api/keys/${created.id}`, {
        ...auth(),
        body: { config: { preset: 'economy' } },
      });
      expect(second.status).toBe(200);
      expect(ApiKey.parse(second.json).config).toEqual({
        preset: 'economy',
        routingOverrides: null,
        allowedProviders: null,
        rateLimit: null,
        description: null,
      });
      // And the list shows the stored state, not just the response.
      const list = ApiKeyList.parse((await h.request('GET', '/api/keys', auth())).json);
      expect(list.keys.find((k) => k.id === created.id)?.config?.rateLimit).toBeNull();
    });

    it('clears the config with PATCH config: null', async () => {
      const created = await createKey(h, alice, { name: 'to clear', config: { rateLimit: 3 } });
      const res = await h.request('PATCH', `/api/keys/${created.id}`, { ...auth(), body: { config: null } });
      expect(ApiKey.parse(res.json).config).toBeNull();
    });

    it('revokes a key with DELETE (204, empty body); the key then fails with 401 on its very next request', async () => {
      const victim = await createKey(h, alice, { name: 'to revoke' });
      expect((await h.request('GET', '/v1/me', { key: victim.key })).status).toBe(200);
      const res = await h.request('DELETE', `/api/keys/${victim.id}`, auth());
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(await h.request('GET', '/v1/me', { key: victim.key }), 'UNAUTHORIZED');
      expectError(await h.request('GET', '/api/keys', { key: victim.key }), 'UNAUTHORIZED');
      const list = ApiKeyList.parse((await h.request('GET', '/api/keys', auth())).json);
      expect(list.keys.map((k) => k.id)).not.toContain(victim.id);
    });

    it('answers PATCH and DELETE of a revoked key with 404 NOT_FOUND', async () => {
      const victim = await createKey(h, alice, { name: 'revoked' });
      expect((await h.request('DELETE', `/api/keys/${victim.id}`, auth())).status).toBe(204);
      expectError(
        await h.request('PATCH', `/api/keys/${victim.id}`, { ...auth(), body: { name: 'again' } }),
        'NOT_FOUND',
      );
      expectError(await h.request('DELETE', `/api/keys/${victim.id}`, auth()), 'NOT_FOUND');
    });

    it('answers PATCH and DELETE of a key id that does not exist with 404 NOT_FOUND', async () => {
      expectError(
        await h.request('PATCH', `/api/keys/${MISSING_ID}`, { ...auth(), body: { name: 'x' } }),
        'NOT_FOUND',
      );
      expectError(await h.request('DELETE', `/api/keys/${MISSING_ID}`, auth()), 'NOT_FOUND');
    });

    it("rejects PATCH of another account's key with 403 FORBIDDEN and leaves it unchanged", async () => {
      const bobs = await createKey(h, bob, { name: 'bob only', config: { rateLimit: 9 } });
      expectError(
        await h.request('PATCH', `/api/keys/${bobs.id}`, {
          ...auth(),
          body: { name: 'hijacked', config: null },
        }),
        'FORBIDDEN',
      );
      const list = ApiKeyList.parse((await h.request('GET', '/api/keys', { cookie: bob.cookie })).json);
      const stored = list.keys.find((k) => k.id === bobs.id);
      expect(stored?.name).toBe('bob only');
      expect(stored?.config?.rateLimit).toBe(9);
    });

    it("rejects DELETE of another account's key with 403 FORBIDDEN and the key keeps working", async () => {
      const bobs = await createKey(h, bob, { name: 'bob keeps' });
      expectError(await h.request('DELETE', `/api/keys/${bobs.id}`, auth()), 'FORBIDDEN');
      expect((await h.request('GET', '/v1/me', { key: bobs.key })).status).toBe(200);
    });

    it('rejects a path id that is not a UUID with 400 VALIDATION_ERROR on PATCH and DELETE', async () => {
      const patch = expectError(
        await h.request('PATCH', '/api/keys/not-a-uuid', { ...auth(), body: { name: 'x' } }),
        'VALIDATION_ERROR',
      );
      expect(detailPaths(patch)).toEqual(['id']);
      const del = expectError(await h.request('DELETE', '/api/keys/123', auth()), 'VALIDATION_ERROR');
      expect(detailPaths(del)).toEqual(['id']);
    });
  });

  describe('validation of create and update bodies', () => {
    const invalid: [string, Record<string, unknown>, string[]][] = [
      ['an empty name', { name: '' }, ['name']],
      ['a name of only spaces', { name: '   ' }, ['name']],
      ['a 101-character name', { name: 'n'.repeat(101) }, ['name']],
      ['a missing name', {}, ['name']],
      ['a name that is not a string', { name: 42 }, ['name']],
      [
        'a 501-character description',
        { name: 'k', config: { description: 'd'.repeat(501) } },
        ['config.description'],
      ],
      [
        'an empty allowedProviders',
        { name: 'k', config: { allowedProviders: [] } },
        ['config.allowedProviders'],
      ],
      [
        'an unknown provider',
        { name: 'k', config: { allowedProviders: ['anthropic', 'acme'] } },
        ['config.allowedProviders.1'],
      ],
      [
        'a routing override for an unknown task',
        { name: 'k', config: { routingOverrides: { juggler: 'haiku' } } },
        ['config.routingOverrides'],
      ],
      [
        'a routing override to an unknown tier',
        { name: 'k', config: { routingOverrides: { debater: 'gpt' } } },
        ['config.routingOverrides.debater'],
      ],
      ['an unknown preset', { name: 'k', config: { preset: 'turbo' } }, ['config.preset']],
      ['a fractional rateLimit', { name: 'k', config: { rateLimit: 1.5 } }, ['config.rateLimit']],
      ['a zero rateLimit', { name: 'k', config: { rateLimit: 0 } }, ['config.rateLimit']],
      ['an unknown config field', { name: 'k', config: { temperature: 1 } }, ['config']],
      ['an unknown top-level field', { name: 'k', owner: 'someone' }, ['']],
    ];

    it.each(invalid)(
      'rejects POST /api/keys with %s: 400 VALIDATION_ERROR with details',
      async (_l, body, paths) => {
        const res = await h.request('POST', '/api/keys', { cookie: alice.cookie, body });
        const error = expectError(res, 'VALIDATION_ERROR');
        expect(detailPaths(error)).toEqual(paths);
        for (const detail of error.details ?? []) {
          expect(detail.message.length).toBeGreaterThan(0);
          expect(detail.code.length).toBeGreaterThan(0);
        }
      },
    );

    it.each(invalid.filter(([label]) => label !== 'a missing name'))(
      'rejects PATCH /api/keys/{id} with %s: 400 VALIDATION_ERROR and no change',
      async (_l, body, paths) => {
        const target = await createKey(h, alice, { name: 'stable', config: { rateLimit: 11 } });
        const res = await h.request('PATCH', `/api/keys/${target.id}`, { key: aliceKey.key, body });
        const error = expectError(res, 'VALIDATION_ERROR');
        expect(detailPaths(error)).toEqual(paths);
        const list = ApiKeyList.parse((await h.request('GET', '/api/keys', { cookie: alice.cookie })).json);
        const stored = list.keys.find((k) => k.id === target.id);
        expect(stored?.name).toBe('stable');
        expect(stored?.config?.rateLimit).toBe(11);
      },
    );

    it('accepts boundary values: a 100-character name, a 500-character description, a null override', async () => {
      const res = await h.request('POST', '/api/keys', {
        cookie: alice.cookie,
        body: {
          name: 'n'.repeat(100),
          config: {
            description: 'd'.repeat(500),
            routingOverrides: { fact_checker: null, orchestrator: 'opus' },
            allowedProviders: ['ollama'],
            rateLimit: 1,
          },
        },
      });
      expect(res.status).toBe(201);
      const created = CreatedApiKey.parse(res.json);
      expect(created.name).toHaveLength(100);
      expect(created.config?.routingOverrides).toEqual({ fact_checker: null, orchestrator: 'opus' });
    });
  });

  describe('known defect: REST coerces strings and booleans into numbers', () => {
    it('rejects a string rateLimit with 400 VALIDATION_ERROR on config.rateLimit', async () => {
      const res = await h.request('POST', '/api/keys', {
        cookie: alice.cookie,
        body: { name: 'k', config: { rateLimit: '10' } },
      });
      expect(res.status).toBe(400);
    });

    it('rejects a boolean rateLimit with 400 VALIDATION_ERROR', async () => {
      const res = await h.request('POST', '/api/keys', {
        cookie: alice.cookie,
        body: { name: 'k', config: { rateLimit: true } },
      });
      expect(res.status).toBe(400);
    });
  });

  describe('credentials', () => {
    it('accepts the key as Authorization: Bearer and as X-Api-Key', async () => {
      const bearer = await h.request('GET', '/api/keys', { key: aliceKey.key, keyHeader: 'bearer' });
      const header = await h.request('GET', '/api/keys', { key: aliceKey.key, keyHeader: 'x-api-key' });
      expect(bearer.status).toBe(200);
      expect(header.status).toBe(200);
      expect(bearer.json).toEqual(header.json);
    });

    it.each([
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['PATCH', `/api/keys/${MISSING_ID}`],
      ['DELETE', `/api/keys/${MISSING_ID}`],
    ])('answers %s %s without credentials with 401 UNAUTHORIZED', async (method, path) => {
      const body = method === 'POST' || method === 'PATCH' ? { name: 'x' } : undefined;
      expectError(await h.request(method, path, { body }), 'UNAUTHORIZED');
    });

    it('refuses an invalid key even when a valid session cookie comes with it', async () => {
      const res = await h.request('GET', '/api/keys', {
        cookie: alice.cookie,
        key: `vrd_${'A'.repeat(32)}`,
      });
      expectError(res, 'UNAUTHORIZED');
    });
  });

  describe('isolation between accounts', () => {
    it("never shows one user's keys to another, by session or by key", async () => {
      const a = await createKey(h, alice, { name: 'alice private' });
      const b = await createKey(h, bob, { name: 'bob private' });
      for (const auth of [{ cookie: bob.cookie }, { key: bobKey.key }]) {
        const res = await h.request('GET', '/api/keys', auth);
        const ids = ApiKeyList.parse(res.json).keys.map((k) => k.id);
        expect(ids).toContain(b.id);
        expect(ids).not.toContain(a.id);
        expect(ids).not.toContain(aliceKey.id);
        expect(res.text).not.toContain(a.keyPrefix);
      }
      for (const auth of [{ cookie: alice.cookie }, { key: aliceKey.key }]) {
        const ids = ApiKeyList.parse((await h.request('GET', '/api/keys', auth)).json).keys.map((k) => k.id);
        expect(ids).toContain(a.id);
        expect(ids).not.toContain(b.id);
      }
    });

    it("lets B's key manage only B's keys: A's key ids answer 403 to B and stay A's", async () => {
      const a = await createKey(h, alice, { name: 'alice target' });
      expectError(
        await h.request('PATCH', `/api/keys/${a.id}`, { key: bobKey.key, body: { name: 'mine' } }),
        'FORBIDDEN',
      );
      expectError(await h.request('DELETE', `/api/keys/${a.id}`, { key: bobKey.key }), 'FORBIDDEN');
      // The owner still manages it.
      const own = await h.request('PATCH', `/api/keys/${a.id}`, {
        key: aliceKey.key,
        body: { name: 'renamed' },
      });
      expect(ApiKey.parse(own.json).name).toBe('renamed');
    });

    it("creates a key for the caller's own account when authenticated by key", async () => {
      const res = await h.request('POST', '/api/keys', { key: bobKey.key, body: { name: 'made by key' } });
      const created = CreatedApiKey.parse(res.json);
      const me = await h.request<{ id: string }>('GET', '/v1/me', { key: created.key });
      expect(me.json.id).toBe(bob.session.user.id);
    });

    it('lists keys newest first', async () => {
      const user = await registerUser(h);
      const first = await createKey(h, user, { name: 'first' });
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct createdAt
      const second = await createKey(h, user, { name: 'second' });
      const list = ApiKeyList.parse((await h.request('GET', '/api/keys', { cookie: user.cookie })).json);
      expect(list.keys.map((k) => k.id)).toEqual([second.id, first.id]);
    });
  });
});
