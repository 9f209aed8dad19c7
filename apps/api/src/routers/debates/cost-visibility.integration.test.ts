import type { DebateCostBreakdown, DebateObject, VerdictDetail } from '@verdict/contracts';
import { debateReaching, insertPendingDebate, insertStoredDebate } from '@verdict/core/testing';
import type { EngineNode } from '@verdict/engine';
import { startTestEngine } from '@verdict/engine/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  expectError,
  type Harness,
  type HttpResult,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

// The share view of a public debate hides its cost unless the owner chose showCost: every other read of the
// debate by someone outside the owner's account and workspace shows no more than that. (The debate object's
// ownerId, which the spec gives every debate object, is an opaque id and stays.)
describe("a public debate's cost, by reader", () => {
  let h: Harness;
  let engine: EngineNode;
  let alice: TestUser; // the owner
  let carol: TestUser; // a viewer in the owner's workspace
  let bob: TestUser; // anyone else
  let bobKey: string;
  let debateId: string;

  const ok = <T>(res: HttpResult<T>): T => {
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const showCost = async (showCost: boolean) =>
    ok(
      await h.request('PATCH', `/api/share/${debateId}`, {
        cookie: alice.cookie,
        body: { settings: { showCost } },
      }),
    );
  /** Every read of the debate that carries its cost: the debate, its full verdict, its breakdown, and /v1. */
  const readsBy = async (user: TestUser, key?: string) => ({
    debate: await h.request<DebateObject>('GET', `/api/debates/${debateId}`, { cookie: user.cookie }),
    verdict: await h.request<VerdictDetail>('GET', `/api/debates/${debateId}/verdict`, {
      cookie: user.cookie,
    }),
    cost: await h.request<DebateCostBreakdown>('GET', `/api/debates/${debateId}/cost`, {
      cookie: user.cookie,
    }),
    ...(key ? { v1: await h.request<VerdictDetail>('GET', `/v1/verdicts/${debateId}`, { key }) } : {}),
  });

  beforeAll(async () => {
    h = await startServer();
    engine = startTestEngine(h.core, { firstTokenMs: 1 }, 2);
    alice = await registerUser(h);
    carol = await registerUser(h);
    bob = await registerUser(h);
    await h.core.accounts.setPlan(alice.session.user.id, 'enterprise');
    await h.core.accounts.setPlan(bob.session.user.id, 'pro');
    bobKey = (await createKey(h, bob)).key;

    debateId = (
      await insertPendingDebate(h.core, {
        ownerId: alice.session.user.id,
        question: 'Should the cost of this debate be anyone else’s business?',
        agents: 2,
        rounds: 1,
      })
    ).id;
    expect((await debateReaching(h.core, debateId))?.status).toBe('completed');
    ok(
      await h.request('PATCH', `/api/debates/${debateId}/visibility`, {
        cookie: alice.cookie,
        body: { isPublic: true },
      }),
    );
    const workspace = await h.request<{ id: string }>('POST', '/api/workspaces', {
      cookie: alice.cookie,
      body: { name: 'Owners', slug: `owners-${debateId.slice(0, 8)}` },
    });
    expect(workspace.status, workspace.text).toBe(201);
    const joined = await h.request('POST', `/api/workspaces/${workspace.json.id}/members`, {
      cookie: alice.cookie,
      body: { email: carol.email, role: 'viewer' },
    });
    expect(joined.status, joined.text).toBe(201);
    ok(
      await h.request('PATCH', `/api/debates/${debateId}/workspace`, {
        cookie: alice.cookie,
        body: { workspaceId: workspace.json.id },
      }),
    );
    ok(await h.request('POST', `/api/share/${debateId}`, { cookie: alice.cookie }));
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
    await h?.close();
  });

  it('hides the cost from another reader while the share link does not show the cost', async () => {
    await showCost(false);
    const reads = await readsBy(bob, bobKey);
    // Still readable: it is public.
    expect(ok(reads.debate)).toMatchObject({ id: debateId, status: 'completed', cost: null });
    expect(ok(reads.verdict).debate).toMatchObject({ cost: null });
    expect(ok(reads.verdict).verdict).not.toBeNull();
    expect(ok(reads.v1 as HttpResult<VerdictDetail>).debate).toMatchObject({ cost: null });
    // As the owner's other reads (analytics) answer a reader they are not for.
    expectError(reads.cost, 'NOT_FOUND');
  });

  it('hides it from another reader of a public debate that has no share link at all', async () => {
    const id = await insertStoredDebate(h.core, {
      ownerId: alice.session.user.id,
      question: 'Is a public debate without a link showing its cost?',
      isPublic: true,
    });
    const debate = await h.request<DebateObject>('GET', `/api/debates/${id}`, { cookie: bob.cookie });
    expect(ok(debate)).toMatchObject({ id, cost: null });
    expectError(await h.request('GET', `/api/debates/${id}/cost`, { cookie: bob.cookie }), 'NOT_FOUND');
    expect((await h.request('GET', `/api/debates/${id}/cost`, { cookie: alice.cookie })).status).toBe(200);
  });

  it('shows another reader the cost once the owner shows it on the share link', async () => {
    await showCost(true);
    const owners = await readsBy(alice);
    const reads = await readsBy(bob, bobKey);
    const cost = ok(owners.debate).cost;
    expect(cost?.llmCalls).toBeGreaterThan(0);
    expect(ok(reads.debate)).toMatchObject({ cost });
    expect(ok(reads.verdict).debate).toMatchObject({ cost });
    expect(ok(reads.v1 as HttpResult<VerdictDetail>).debate).toMatchObject({ cost });
    const breakdown = ok(reads.cost);
    expect(breakdown).toEqual(ok(owners.cost));
    expect(breakdown.calls.length).toBe(cost?.llmCalls);
    await showCost(false);
  });

  it('always shows the owner and the members of its workspace the cost', async () => {
    for (const setting of [false, true]) {
      await showCost(setting);
      for (const [who, user] of [
        ['owner', alice],
        ['workspace viewer', carol],
      ] as const) {
        const reads = await readsBy(user);
        const debate = ok(reads.debate);
        expect(debate.ownerId, who).toBe(alice.session.user.id);
        expect(debate.cost?.llmCalls, who).toBeGreaterThan(0);
        expect(ok(reads.verdict).debate).toEqual(debate);
        const breakdown = ok(reads.cost);
        expect(breakdown.totalUsd, who).toBe(debate.cost?.estimatedUsd);
        expect(breakdown.calls.length, who).toBe(debate.cost?.llmCalls);
      }
    }
    await showCost(false);
  });

  it("keeps a private debate's cost from everyone else even when its share link shows the cost", async () => {
    const id = await insertStoredDebate(h.core, {
      ownerId: alice.session.user.id,
      question: 'Is a private debate with a link public?',
    });
    ok(await h.request('POST', `/api/share/${id}`, { cookie: alice.cookie }));
    ok(
      await h.request('PATCH', `/api/share/${id}`, {
        cookie: alice.cookie,
        body: { settings: { showCost: true } },
      }),
    );
    expectError(await h.request('GET', `/api/debates/${id}/cost`, { cookie: bob.cookie }), 'NOT_FOUND');
    expectError(await h.request('GET', `/api/debates/${id}`, { cookie: bob.cookie }), 'NOT_FOUND');
    expect((await h.request('GET', `/api/debates/${id}/cost`, { cookie: alice.cookie })).status).toBe(200);
  });
});
