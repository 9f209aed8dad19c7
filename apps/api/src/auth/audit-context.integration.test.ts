import type { Workspace } from '@verdict/contracts';
import { auditTrailOf } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type Harness, registerUser, startServer } from '../testing/http-harness.ts';

describe('the audit context of a request', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('records a change made through REST with the caller’s key, address, user agent and request id', async () => {
    const user = await registerUser(h);
    const userId = user.session.user.id;
    await h.core.accounts.setPlan(userId, 'enterprise');
    const key = await createKey(h, user);
    const created = await h.request<Workspace>('POST', '/api/workspaces', {
      key: key.key,
      headers: { 'user-agent': 'audit-client/2.0' },
      body: { name: 'Keyed', slug: `keyed-${userId.slice(0, 8)}` },
    });
    expect(created.status, created.text).toBe(201);
    const renamed = await h.request('PATCH', `/api/workspaces/${created.json.id}`, {
      cookie: user.cookie,
      headers: { 'user-agent': 'dashboard/1.0' },
      body: { name: 'Keyed, renamed' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const [byKey, bySession, ...rest] = await auditTrailOf(h.core.db, { workspaceId: created.json.id });
    expect(rest).toEqual([]);
    expect(byKey).toMatchObject({
      action: 'workspace.create',
      actor_kind: 'key',
      actor_id: userId,
      actor_key_id: key.id,
      ip: '127.0.0.1',
      user_agent: 'audit-client/2.0',
      request_id: created.headers.get('x-request-id'),
    });
    expect(bySession).toMatchObject({
      action: 'workspace.update',
      actor_kind: 'user',
      actor_id: userId,
      actor_key_id: null,
      user_agent: 'dashboard/1.0',
      request_id: renamed.headers.get('x-request-id'),
    });
    expect(bySession?.request_id).not.toBe(byKey?.request_id);
  });

  it('records a sign-in through REST as the user’s own, from the request that made it', async () => {
    const user = await registerUser(h);
    const res = await h.request('POST', '/api/auth/login', {
      headers: { 'user-agent': 'browser/9' },
      body: { email: user.email, password: user.password },
    });
    expect(res.status, res.text).toBe(200);
    const sessions = (await auditTrailOf(h.core.db, { accountId: user.session.user.id })).filter(
      (entry) => entry.action === 'session.create',
    );
    expect(sessions).toHaveLength(2); // the sign-up's, then this sign-in's
    expect(sessions[1]).toMatchObject({
      actor_kind: 'user',
      actor_id: user.session.user.id,
      ip: '127.0.0.1',
      user_agent: 'browser/9',
      request_id: res.headers.get('x-request-id'),
    });
  });
});
