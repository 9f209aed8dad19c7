import { createHash } from 'node:crypto';
import {
  CLAIM_ID_PATTERN,
  type CreatedDebate,
  type PublicDebate,
  type ShareLink,
  type ShareLinkSettings,
} from '@verdict/contracts';
import { debateReaching, eventually, insertStoredDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('public debates and share links', () => {
  let h: Harness;
  let engine: EngineNode;
  let alice: TestUser;
  let bob: TestUser;
  let debateId: string;

  const share = (user: TestUser, id: string) =>
    h.request<ShareLink>('POST', `/api/share/${id}`, { cookie: user.cookie });
  const read = (
    token: string,
    options: { cookie?: string; key?: string; headers?: Record<string, string> } = {},
  ) => h.request<PublicDebate>('GET', `/api/public/debates/${token}`, options);

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '50', PUBLIC_READS_PER_MINUTE: '10000' } });
    engine = startTestEngine(h.core, { firstTokenMs: 1 }, 4);
    alice = await registerUser(h, { name: 'Alice Owner' });
    bob = await registerUser(h, { name: 'Bob Reader' });
    await h.core.billing.grantCredits(alice.session.user.id, 100);
    await h.core.billing.grantCredits(bob.session.user.id, 100);
    const created = await h.request<CreatedDebate>('POST', '/api/debates', {
      cookie: alice.cookie,
      body: { question: 'Should the team move its weekly planning meeting to Mondays?', skipCache: true },
    });
    expect(created.status, created.text).toBe(201);
    debateId = created.json.debateId;
    expect((await debateReaching(h.core, debateId))?.status).toBe('completed');
  }, 60_000);

  afterAll(async () => {
    await engine.stop();
    await h.close();
  });

  describe('PATCH /api/debates/:id/visibility', () => {
    it('lets the owner make a debate public and private again', async () => {
      const on = await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
        cookie: alice.cookie,
        body: { isPublic: true },
      });
      expect(on.status, on.text).toBe(200);
      expect(on.json).toEqual({ id: debateId, isPublic: true });
      const seen = await h.request<{ isPublic: boolean }>('GET', `/api/debates/${debateId}`, {
        cookie: bob.cookie,
      });
      expect(seen.status).toBe(200);
      const off = await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
        cookie: alice.cookie,
        body: { isPublic: false },
      });
      expect(off.json).toEqual({ id: debateId, isPublic: false });
      expectError(await h.request('GET', `/api/debates/${debateId}`, { cookie: bob.cookie }), 'NOT_FOUND');
    });

    it("answers 404 for another user's debate and a missing one, and 400 for a non-boolean", async () => {
      expectError(
        await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
          cookie: bob.cookie,
          body: { isPublic: true },
        }),
        'NOT_FOUND',
      );
      expectError(
        await h.request('PATCH', `/api/debates/${MISSING}/visibility`, {
          cookie: alice.cookie,
          body: { isPublic: true },
        }),
        'NOT_FOUND',
      );
      for (const isPublic of ['true', 1, null]) {
        expectError(
          await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
            cookie: alice.cookie,
            body: { isPublic },
          }),
          'VALIDATION_ERROR',
        );
      }
      expectError(
        await h.request('PATCH', `/api/debates/${debateId}/visibility`, { body: { isPublic: true } }),
        'UNAUTHORIZED',
      );
    });
  });

  describe('share links', () => {
    it('creates a link with a 256-bit token stored only as its hash, and settings off by default', async () => {
      const res = await share(alice, debateId);
      expect(res.status, res.text).toBe(200);
      // Neither APP_URL nor PUBLIC_BASE_URL is set: the link is on the address the request came to.
      expect(res.json.shareUrl).toBe(`${h.baseUrl}/share/${res.json.token}`);
      expect(res.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.json.settings).toEqual({
        allowComments: false,
        allowFork: false,
        showCost: false,
        requireSignIn: false,
      });
      const stored = await h.core.db.execute<{ token_hash: string }>(
        'select token_hash from share_links where debate_id = ?',
        [debateId],
      );
      expect(stored).toEqual([{ token_hash: createHash('sha256').update(res.json.token).digest('hex') }]);
    });

    it('rotates: the old token is dead at once, the new one reads, settings carry over', async () => {
      const first = (await share(alice, debateId)).json;
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { showCost: true } },
      });
      const second = (await share(alice, debateId)).json;
      expect(second.token).not.toBe(first.token);
      expect(second.settings.showCost).toBe(true);
      expectError(await read(first.token), 'NOT_FOUND');
      expect((await read(second.token)).status).toBe(200);
    });

    it('changes only the settings sent, and refuses anything but booleans', async () => {
      await share(alice, debateId);
      const res = await h.request<ShareLinkSettings>('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { allowComments: true, allowFork: true } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.settings).toMatchObject({ allowComments: true, allowFork: true });
      for (const settings of [
        { allowComments: 'true' },
        { showCost: 1 },
        { requireSignIn: null },
        { other: true },
      ]) {
        expectError(
          await h.request('PATCH', `/api/share/${debateId}`, { cookie: alice.cookie, body: { settings } }),
          'VALIDATION_ERROR',
        );
      }
      expectError(
        await h.request('PATCH', `/api/share/${debateId}`, { cookie: alice.cookie, body: {} }),
        'VALIDATION_ERROR',
      );
    });

    it('is for the owner only: others get 404 on every share route, anonymous callers 401', async () => {
      for (const [method, body] of [
        ['POST', undefined],
        ['PATCH', { settings: { showCost: true } }],
        ['DELETE', undefined],
      ] as const) {
        expectError(
          await h.request(method, `/api/share/${debateId}`, { cookie: bob.cookie, body }),
          'NOT_FOUND',
        );
        expectError(
          await h.request(method, `/api/share/${MISSING}`, { cookie: alice.cookie, body }),
          'NOT_FOUND',
        );
        expectError(await h.request(method, `/api/share/${debateId}`, { body }), 'UNAUTHORIZED');
        expectError(
          await h.request(method, '/api/share/not-a-uuid', { cookie: alice.cookie, body }),
          'VALIDATION_ERROR',
        );
      }
    });

    it('revokes: the token stops working, and a second revoke or a settings change is 404', async () => {
      const link = (await share(alice, debateId)).json;
      const res = await h.request('DELETE', `/api/share/${debateId}`, { cookie: alice.cookie });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ debateId, revoked: true });
      expectError(await read(link.token), 'NOT_FOUND');
      expectError(await h.request('DELETE', `/api/share/${debateId}`, { cookie: alice.cookie }), 'NOT_FOUND');
      expectError(
        await h.request('PATCH', `/api/share/${debateId}`, {
          cookie: alice.cookie,
          body: { settings: { showCost: true } },
        }),
        'NOT_FOUND',
      );
    });
  });

  describe('GET /api/public/debates/:token', () => {
    it('shows the sanitized debate with its transcript and events, and no owner, key or cost', async () => {
      const key = await createKey(h, alice);
      await h
        .request('PATCH', `/api/share/${debateId}`, {
          cookie: alice.cookie,
          body: { settings: { showCost: false } },
        })
        .catch(() => {});
      const link = (await share(alice, debateId)).json;
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { showCost: false } },
      });
      const res = await read(link.token);
      expect(res.status, res.text).toBe(200);
      const body = res.json;
      expect(Object.keys(body).sort()).toEqual(
        [
          'citedPassages',
          'completedAt',
          'context',
          'cost',
          'createdAt',
          'events',
          'id',
          'isPublic',
          'mode',
          'panel',
          'question',
          'settings',
          'status',
          'transcript',
          'verdict',
          'viewCount',
        ].sort(),
      );
      expect(body.status).toBe('completed');
      expect(body.cost).toBeNull();
      // A debate without the evidence engine has no corpus for its link to show.
      expect(body.citedPassages).toEqual([]);
      expect(body.verdict?.recommendation).toBeTruthy();
      expect(body.panel.length).toBeGreaterThanOrEqual(2);
      expect(body.transcript.length).toBeGreaterThan(0);
      for (const entry of body.transcript) expect(entry.claimId).toMatch(CLAIM_ID_PATTERN);
      expect(new Set(body.transcript.map((e) => e.claimId)).size).toBe(body.transcript.length);
      const seqs = body.events.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(body.events[0]?.event).toBe('debate.started');
      expect(body.events.at(-1)?.event).toBe('debate.completed');
      const verdictEvent = body.events.find((e) => e.event === 'verdict');
      expect(Number.isInteger(verdictEvent?.data.confidence)).toBe(true); // whole-number percent, as streamed
      const text = res.text;
      for (const secret of [
        alice.session.user.id,
        alice.email,
        key.key,
        key.id,
        'fundingSource',
        'routing',
        'ownerId',
        'email',
        'lease',
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('shows the cost only with showCost', async () => {
      const link = (await share(alice, debateId)).json;
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { showCost: true } },
      });
      const res = await read(link.token);
      expect(res.json.cost).toMatchObject({ credits: expect.any(Number), llmCalls: expect.any(Number) });
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { showCost: false } },
      });
      expect((await read(link.token)).json.cost).toBeNull();
    });

    it('with requireSignIn needs a session or a key (401 otherwise), and refuses bad credentials', async () => {
      const link = (await share(alice, debateId)).json;
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { requireSignIn: true } },
      });
      expectError(await read(link.token), 'UNAUTHORIZED');
      expect((await read(link.token, { cookie: bob.cookie })).status).toBe(200);
      const bobKey = await createKey(h, bob);
      expect((await read(link.token, { key: bobKey.key })).status).toBe(200);
      expectError(await read(link.token, { key: 'vrd_not-a-real-key' }), 'UNAUTHORIZED');
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { requireSignIn: false } },
      });
      expect((await read(link.token)).status).toBe(200);
    });

    it('counts each read as a view', async () => {
      const link = (await share(alice, debateId)).json;
      const before = (await read(link.token)).json.viewCount;
      await Promise.all(Array.from({ length: 5 }, () => read(link.token)));
      expect((await read(link.token)).json.viewCount).toBe(before + 6);
      const stored = async () =>
        (
          await h.core.db.execute<{ view_count: number }>('select view_count from debates where id = ?', [
            debateId,
          ])
        )[0]?.view_count ?? 0;
      // Written within about a second, in one statement for all the reads.
      expect(await eventually(stored, (n) => n >= before + 6)).toBe(before + 6);
    });

    it('is 404 for an unknown token and for a deleted debate', async () => {
      expectError(await read('A'.repeat(43)), 'NOT_FOUND');
      const created = await h.request<CreatedDebate>('POST', '/api/debates', {
        cookie: alice.cookie,
        body: { question: 'Should the office plants be watered twice a week?', skipCache: true },
      });
      const link = (await share(alice, created.json.debateId)).json;
      expect((await read(link.token)).status).toBe(200);
      await h.request('DELETE', `/api/debates/${created.json.debateId}`, { cookie: alice.cookie });
      expectError(await read(link.token), 'NOT_FOUND');
    });

    it('answers OPTIONS 204 with the spec CORS headers, preflight or not', async () => {
      const preflight = { origin: 'https://embed.example', 'access-control-request-method': 'GET' };
      for (const headers of [{}, preflight] as Record<string, string>[]) {
        const res = await h.request('OPTIONS', '/api/public/debates/some-token', { headers });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
      }
    });
  });

  describe('forks', () => {
    it('a private debate cannot be forked by others; allowFork on its link lets them, and notifies the owner', async () => {
      await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
        cookie: alice.cookie,
        body: { isPublic: false },
      });
      await h.request('DELETE', `/api/share/${debateId}`, { cookie: alice.cookie });
      expectError(
        await h.request('POST', `/api/debates/${debateId}/fork`, { cookie: bob.cookie, body: {} }),
        'NOT_FOUND',
      );
      await share(alice, debateId);
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { allowFork: true } },
      });
      const forked = await h.request<CreatedDebate>('POST', `/api/debates/${debateId}/fork`, {
        cookie: bob.cookie,
        body: {},
      });
      expect(forked.status, forked.text).toBe(201);
      const [row] = await h.core.db.execute<{ forked_from_id: string }>(
        'select forked_from_id from debates where id = ?',
        [forked.json.debateId],
      );
      expect(row?.forked_from_id).toBe(debateId);
      const inbox = await h.request<{
        notifications: { type: string; debateId: string; actorName: string; message: string }[];
      }>('GET', '/api/notifications', { cookie: alice.cookie });
      expect(inbox.json.notifications[0]).toMatchObject({ type: 'fork', debateId, actorName: 'Bob Reader' });
      expect(inbox.json.notifications[0]?.message).toContain('Bob Reader forked your debate');
    });

    it("forking one's own public debate notifies nobody", async () => {
      await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
        cookie: alice.cookie,
        body: { isPublic: true },
      });
      const before = (
        await h.request<{ unreadCount: number }>('GET', '/api/notifications/unread-count', {
          cookie: alice.cookie,
        })
      ).json.unreadCount;
      const forked = await h.request('POST', `/api/debates/${debateId}/fork`, {
        cookie: alice.cookie,
        body: {},
      });
      expect(forked.status, forked.text).toBe(201);
      const after = (
        await h.request<{ unreadCount: number }>('GET', '/api/notifications/unread-count', {
          cookie: alice.cookie,
        })
      ).json.unreadCount;
      expect(after).toBe(before);
    });
  });
});

describe('the public read limit', () => {
  let h: Harness;
  let token: string;

  beforeAll(async () => {
    h = await startServer();
    const alice = await registerUser(h);
    const id = await insertStoredDebate(h.core, {
      ownerId: alice.session.user.id,
      question: 'Should this link be read too often?',
    });
    token = (await h.request<ShareLink>('POST', `/api/share/${id}`, { cookie: alice.cookie })).json.token;
  });
  afterAll(async () => h.close());

  it('allows 30 reads per 60 s per client IP, then 429 with Retry-After, unknown tokens counted too', async () => {
    for (let i = 0; i < 29; i++)
      expect((await h.request('GET', `/api/public/debates/${token}`)).status).toBe(200);
    expectError(await h.request('GET', '/api/public/debates/unknown'), 'NOT_FOUND');
    const refused = await h.request('GET', `/api/public/debates/${token}`);
    expectError(refused, 'RATE_LIMITED', { extras: ['retryAfter', 'budget', 'limit'] });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    // Within this window or into the next: refused reads count too, so the wait may pass the window's end.
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('30');
  });
});

describe('client addresses behind a proxy', () => {
  const readsOf = async (h: Harness, token: string, forwardedFor: string) => {
    let allowed = 0;
    for (let i = 0; i < 31; i++) {
      const res = await h.request('GET', `/api/public/debates/${token}`, {
        headers: { 'x-forwarded-for': forwardedFor },
      });
      if (res.status === 200) allowed++;
    }
    return allowed;
  };
  const sharedDebate = async (h: Harness) => {
    const owner = await registerUser(h);
    const id = await insertStoredDebate(h.core, {
      ownerId: owner.session.user.id,
      question: 'Should the proxy be trusted',
    });
    return (await h.request<ShareLink>('POST', `/api/share/${id}`, { cookie: owner.cookie })).json.token;
  };

  it('with TRUST_PROXY, counts each forwarded client apart; without it, X-Forwarded-For changes nothing', async () => {
    const behind = await startServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    const direct = await startServer();
    try {
      const token = await sharedDebate(behind);
      expect(await readsOf(behind, token, '198.51.100.1')).toBe(30);
      expect(await readsOf(behind, token, '198.51.100.2')).toBe(30);
      const other = await sharedDebate(direct);
      expect(
        (await readsOf(direct, other, '198.51.100.1')) + (await readsOf(direct, other, '198.51.100.2')),
      ).toBe(30);
    } finally {
      await behind.close();
      await direct.close();
    }
  });
});
