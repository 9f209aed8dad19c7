import { AuditEntry, AuditPage, AuditVerification } from '@verdict/contracts';
import { type AuditOwner, recordAudit, withAuditContext } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const CSV_HEADER =
  'chain,seq,at,actor_kind,actor_id,actor_key_id,action,target_type,target_id,ip,user_agent,request_id,changes,prev_hash,hash';

describe('audit trail routes', () => {
  let h: Harness;
  let pro: TestUser;
  let proKey: string;
  let free: TestUser;
  let owner: TestUser;
  let stranger: TestUser;
  let workspaceId: string;

  const userId = (user: TestUser) => user.session.user.id;
  /** Entries as the features record them: in a transaction, with the request's actor and origin. */
  const seed = (owner: AuditOwner, actorId: string, actions: string[]) =>
    withAuditContext(
      {
        actor: { kind: 'user', userId: actorId },
        origin: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11, "quoted")', requestId: 'req-9' },
      },
      () =>
        h.core.db.em().transactional(async (em) => {
          for (const action of actions) {
            await recordAudit(em, h.core.clock, {
              owner,
              action,
              target: { type: action.split('.')[0] ?? 'x', id: 'target-1' },
              changes: { url: { before: 'https://a.example/?x=1,2', after: 'https://b.example/' } },
            });
          }
        }),
    );

  beforeAll(async () => {
    h = await startServer();
    [pro, free, owner, stranger] = await Promise.all([
      registerUser(h),
      registerUser(h),
      registerUser(h),
      registerUser(h),
    ]);
    await h.core.accounts.setPlan(userId(pro), 'pro');
    await h.core.accounts.setPlan(userId(owner), 'enterprise');
    await h.core.accounts.setPlan(userId(stranger), 'enterprise');
    proKey = (await createKey(h, pro, { name: 'auditor' })).key;
    await seed({ accountId: userId(pro) }, userId(pro), [
      'webhook.create',
      'webhook.update',
      'api_key.revoke',
    ]);
    await seed({ accountId: userId(free) }, userId(free), ['webhook.create']);
    const created = await h.request<{ id: string }>('POST', '/api/workspaces', {
      cookie: owner.cookie,
      body: { name: 'Audited', slug: `audited-${Date.now()}` },
    });
    workspaceId = created.json.id;
    await seed({ workspaceId }, userId(owner), ['workspace.update', 'member.invite']);
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists the caller's own trail newest first, by key or session, filtered and paged", async () => {
    const res = await h.request('GET', '/api/audit', { key: proKey });
    expect(res.status).toBe(200);
    const page = AuditPage.parse(res.json);
    // The key's creation may be audited too: the seeded entries are the last three of the trail's first.
    const seeded = page.entries.filter((entry) => entry.origin.requestId === 'req-9');
    expect(seeded.map((entry) => entry.action)).toEqual([
      'api_key.revoke',
      'webhook.update',
      'webhook.create',
    ]);
    expect(seeded.every((entry) => entry.chain === `account:${userId(pro)}`)).toBe(true);

    const prefixed = await h.request('GET', '/api/audit?action=webhook.&limit=1', { cookie: pro.cookie });
    const first = AuditPage.parse(prefixed.json);
    expect(first.entries.map((entry) => entry.action)).toEqual(['webhook.update']);
    expect(first.nextCursor).not.toBeNull();
    const next = await h.request('GET', `/api/audit?action=webhook.&limit=1&cursor=${first.nextCursor}`, {
      cookie: pro.cookie,
    });
    const second = AuditPage.parse(next.json);
    expect(second.entries.map((entry) => entry.action)).toEqual(['webhook.create']);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses filters out of their format with 400 VALIDATION_ERROR naming them', async () => {
    for (const [query, path] of [
      ['limit=201', 'limit'],
      ['actor=not-a-user', 'actor'],
      ['from=yesterday', 'from'],
      ['cursor=czk5OTk5OTk5OTk5OTk5OTk5', 'cursor'],
    ]) {
      const error = expectError(
        await h.request('GET', `/api/audit?${query}`, { key: proKey }),
        'VALIDATION_ERROR',
      );
      expect(error.details?.map((detail) => detail.path)).toEqual([path]);
    }
  });

  it('verifies the trail', async () => {
    const res = await h.request('GET', '/api/audit/verify', { key: proKey });
    expect(res.status).toBe(200);
    expect(AuditVerification.parse(res.json)).toMatchObject({
      chain: `account:${userId(pro)}`,
      verified: true,
      firstBroken: null,
      checkpoint: null,
    });
    const workspace = await h.request('GET', `/api/audit/verify?workspaceId=${workspaceId}`, {
      cookie: owner.cookie,
    });
    // The workspace's creation (POST /api/workspaces records it) and the two seeded entries.
    expect(AuditVerification.parse(workspace.json)).toMatchObject({ entries: 3, verified: true });
  });

  it('exports the trail as NDJSON, oldest first, as an attachment', async () => {
    const res = await h.request('GET', '/api/audit/export', { key: proKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-account\.ndjson"/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    const lines = res.text.split('\n');
    expect(lines.at(-1)).toBe('');
    const entries = lines.slice(0, -1).map((line) => AuditEntry.parse(JSON.parse(line)));
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries.filter((e) => e.origin.requestId === 'req-9').map((e) => e.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'api_key.revoke',
    ]);
  });

  it("exports a workspace's trail as CSV for its owner: a header row and RFC 4180 quoting", async () => {
    const res = await h.request(
      'GET',
      `/api/audit/export?workspaceId=${workspaceId}&format=csv&action=workspace.`,
      {
        cookie: owner.cookie,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="audit-workspace-${workspaceId}\\.csv"`),
    );
    const rows = res.text.split('\r\n');
    expect(rows[0]).toBe(CSV_HEADER);
    // The header, the workspace's creation, the seeded update, and the empty string after the last CRLF.
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(`workspace:${workspaceId},1,`);
    expect(rows[1]).toContain(',workspace.create,');
    expect(rows[2]).toContain(`workspace:${workspaceId},2,`);
    expect(rows[2]).toContain(',"Mozilla/5.0 (X11, ""quoted"")",req-9,');
    // The changes as PostgreSQL's jsonb gives them back (its key order), quoted as one field.
    expect(rows[2]).toContain(
      ',"{""url"":{""after"":""https://b.example/"",""before"":""https://a.example/?x=1,2""}}",',
    );
  });

  it('streams 2,500 entries, more than two pages of reads, as NDJSON and as CSV: every seq once, in order', async () => {
    const bulk = await registerUser(h);
    await h.core.accounts.setPlan(userId(bulk), 'byok_pro');
    for (let batch = 0; batch < 25; batch++) {
      await seed({ accountId: userId(bulk) }, userId(bulk), Array(100).fill('bulk.write'));
    }
    const ndjson = await h.request('GET', '/api/audit/export?action=bulk.write', { cookie: bulk.cookie });
    const seqs = ndjson.text
      .split('\n')
      .slice(0, -1)
      .map((line) => AuditEntry.parse(JSON.parse(line)).seq);
    // The 2,500 seeded, one after another (after the account's sign-up, session and plan).
    expect(seqs).toEqual(Array.from({ length: 2500 }, (_, i) => (seqs[0] ?? 0) + i));
    const csv = await h.request('GET', '/api/audit/export?format=csv', { cookie: bulk.cookie });
    const rows = csv.text.split('\r\n');
    expect(rows[0]).toBe(CSV_HEADER);
    // The whole trail, every seq once from the first: the seeded, and each export's own entry last.
    const all = rows.slice(1, -1).map((row) => Number(row.split(',')[1]));
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(all.length).toBeGreaterThanOrEqual(2500 + 2);
    expect(rows.at(-2)).toContain(',audit.export,');
  }, 60_000);

  it('answers 402 BYOK_REQUIRED to an account on the free plan, on every audit route', async () => {
    for (const path of ['/api/audit', '/api/audit/verify', '/api/audit/export?format=csv']) {
      const error = expectError(await h.request('GET', path, { cookie: free.cookie }), 'BYOK_REQUIRED', {
        extras: ['requiredPlan', 'upgradeUrl'],
      });
      expect(error).toMatchObject({ requiredPlan: 'pro' });
    }
  });

  it("refuses another account the workspace's trail: 403, and 404 for no such workspace", async () => {
    for (const path of ['/api/audit', '/api/audit/verify', '/api/audit/export']) {
      const res = await h.request('GET', `${path}?workspaceId=${workspaceId}`, { cookie: stranger.cookie });
      expectError(res, 'FORBIDDEN');
      expect(res.text).not.toContain('workspace.update');
    }
    expectError(
      await h.request('GET', `/api/audit/export?workspaceId=${crypto.randomUUID()}`, {
        cookie: stranger.cookie,
      }),
      'NOT_FOUND',
    );
  });

  it('answers the export without credentials 401, and an unknown format 400, in the envelope', async () => {
    expectError(await h.request('GET', '/api/audit/export'), 'UNAUTHORIZED');
    const error = expectError(
      await h.request('GET', '/api/audit/export?format=xlsx', { key: proKey }),
      'VALIDATION_ERROR',
    );
    expect(error.details?.map((detail) => detail.path)).toEqual(['format']);
  });
});
