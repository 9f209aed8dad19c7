import type { CreatedDebate, Workspace, WorkspaceRole } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Harness,
  type HttpResult,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

/**
 * The role matrix, route by route: for every role (and someone outside the workspace) every workspace route,
 * and every debate route a workspace changes, answers 2xx when the role may and 403 FORBIDDEN when it may
 * not (an outsider may also find nothing: 404). Written out as a table, separately from the code's own table
 * (workspaces/roles.ts), so a wrong entry there shows here.
 */
type Actor = WorkspaceRole | 'outsider';
const ACTORS: Actor[] = ['owner', 'admin', 'member', 'viewer', 'outsider'];

describe('the workspace role matrix', () => {
  let h: Harness;
  const people = {} as Record<Actor, TestUser>;
  /** A member whose debates the others act on, and a pool of accounts to invite and remove. */
  let author: TestUser;
  const pool: TestUser[] = [];
  let workspace: Workspace;
  let closedInvites: Workspace;

  const as = (user: TestUser) => ({ cookie: user.cookie });
  const call = (actor: Actor, method: string, path: string, body?: unknown) =>
    h.request(method, path, { ...as(people[actor]), ...(body === undefined ? {} : { body }) });
  const fromPool = () => {
    const next = pool.pop();
    if (!next) throw new Error('the pool of accounts ran dry');
    return next;
  };

  const createWorkspace = async (slug: string, settings: Record<string, unknown> = {}) => {
    const res = await h.request<Workspace>('POST', '/api/workspaces', {
      ...as(people.owner),
      body: { name: slug, slug, settings },
    });
    expect(res.status, res.text).toBe(201);
    for (const role of ['admin', 'member', 'viewer'] as const) await invite(res.json.id, people[role], role);
    await invite(res.json.id, author, 'member');
    return res.json;
  };
  const invite = async (workspaceId: string, user: TestUser, role: 'admin' | 'member' | 'viewer') => {
    const res = await h.request('POST', `/api/workspaces/${workspaceId}/members`, {
      ...as(people.owner),
      body: { email: user.email, role },
    });
    expect(res.status, res.text).toBe(201);
  };
  const authorsDebate = async (settings?: { public?: boolean }) => {
    const res = await h.request<CreatedDebate>('POST', '/api/debates', {
      ...as(author),
      body: { question: 'Should the team move its weekly planning to Mondays?', workspaceId: workspace.id },
    });
    expect(res.status, res.text).toBe(201);
    if (settings?.public) {
      await h.core.db.execute('update debates set is_public = true where id = ?', [res.json.debateId]);
    }
    return res.json.debateId;
  };

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '1000' } });
    for (const actor of ACTORS) people[actor] = await registerUser(h);
    author = await registerUser(h);
    for (let i = 0; i < ACTORS.length * 4; i++) pool.push(await registerUser(h));
    // Enterprise: workspaces, unlimited seats, debates paid from credits (no provider keys needed).
    await h.core.accounts.setPlan(people.owner.session.user.id, 'enterprise');
    await h.core.billing.grantCredits(people.owner.session.user.id, 1000);
    workspace = await createWorkspace('matrix');
    closedInvites = await createWorkspace('matrix-closed', { allowMemberInvites: false });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** Each row: the route, who may, and one attempt by an actor (fresh targets where the route changes things). */
  const rows: [string, Actor[], (actor: Actor) => Promise<HttpResult>][] = [
    [
      'GET /api/workspaces/{id}',
      ['owner', 'admin', 'member', 'viewer'],
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}`),
    ],
    [
      'PATCH /api/workspaces/{id}',
      ['owner', 'admin'],
      (a) => call(a, 'PATCH', `/api/workspaces/${workspace.id}`, { description: `changed by ${a}` }),
    ],
    [
      'GET /api/workspaces/{id}/members',
      ['owner', 'admin', 'member', 'viewer'],
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}/members`),
    ],
    [
      'POST /api/workspaces/{id}/members (member invites allowed)',
      ['owner', 'admin', 'member'],
      (a) =>
        call(a, 'POST', `/api/workspaces/${workspace.id}/members`, {
          email: fromPool().email,
          role: 'viewer',
        }),
    ],
    [
      'POST /api/workspaces/{id}/members (member invites off)',
      ['owner', 'admin'],
      (a) =>
        call(a, 'POST', `/api/workspaces/${closedInvites.id}/members`, {
          email: fromPool().email,
          role: 'viewer',
        }),
    ],
    [
      'POST /api/workspaces/{id}/members (as admin)',
      ['owner', 'admin'],
      (a) =>
        call(a, 'POST', `/api/workspaces/${workspace.id}/members`, {
          email: fromPool().email,
          role: 'admin',
        }),
    ],
    [
      'DELETE /api/workspaces/{id}/members/{userId}',
      ['owner', 'admin'],
      async (a) => {
        const target = fromPool();
        await invite(workspace.id, target, 'member');
        return call(a, 'DELETE', `/api/workspaces/${workspace.id}/members/${target.session.user.id}`);
      },
    ],
    [
      'PATCH /api/workspaces/{id}/members/{userId}',
      ['owner', 'admin'],
      (a) =>
        call(a, 'PATCH', `/api/workspaces/${workspace.id}/members/${author.session.user.id}`, {
          role: 'member',
        }),
    ],
    [
      'GET /api/workspaces/{id}/debates',
      ['owner', 'admin', 'member', 'viewer'],
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}/debates`),
    ],
    [
      "GET /api/invoices?workspaceId (the owner's invoices)",
      ['owner', 'admin'],
      (a) => call(a, 'GET', `/api/invoices?workspaceId=${workspace.id}`),
    ],
    [
      'GET /api/debates?workspaceId',
      ['owner', 'admin', 'member', 'viewer'],
      (a) => call(a, 'GET', `/api/debates?workspaceId=${workspace.id}`),
    ],
    [
      'POST /api/debates with workspaceId',
      ['owner', 'admin', 'member'],
      (a) =>
        call(a, 'POST', '/api/debates', {
          question: 'Should the workspace adopt a shared decision log?',
          workspaceId: workspace.id,
        }),
    ],
    [
      'PATCH /api/debates/{id}/workspace (own debate in)',
      ['owner', 'admin', 'member'],
      async (a) => {
        const own = await h.request<CreatedDebate>('POST', '/api/debates', {
          ...as(people[a]),
          body: { question: 'Should this personal debate join the workspace?' },
        });
        // Personal debates are the caller's own to pay for: give each a credit first.
        return own.status === 201
          ? call(a, 'PATCH', `/api/debates/${own.json.debateId}/workspace`, { workspaceId: workspace.id })
          : own;
      },
    ],
    [
      'GET /api/debates/{id} (another member’s workspace debate)',
      ['owner', 'admin', 'member', 'viewer'],
      async (a) => call(a, 'GET', `/api/debates/${await authorsDebate()}`),
    ],
    [
      'DELETE /api/debates/{id} (another member’s workspace debate)',
      ['owner', 'admin'],
      async (a) => call(a, 'DELETE', `/api/debates/${await authorsDebate()}`),
    ],
    [
      'PATCH /api/debates/{id}/visibility (another member’s workspace debate)',
      ['owner', 'admin'],
      async (a) => call(a, 'PATCH', `/api/debates/${await authorsDebate()}/visibility`, { isPublic: true }),
    ],
    [
      'POST /api/share/{debateId} (another member’s workspace debate)',
      ['owner', 'admin'],
      async (a) => call(a, 'POST', `/api/share/${await authorsDebate()}`),
    ],
  ];

  beforeAll(async () => {
    // Every actor gets credits for the personal debate the move row creates.
    for (const actor of ACTORS) await h.core.billing.grantCredits(people[actor].session.user.id, 10);
  });

  for (const [route, allowed, attempt] of rows) {
    for (const actor of ACTORS) {
      const may = allowed.includes(actor);
      it(`${route}: ${actor} ${may ? 'may' : 'may not'}`, async () => {
        const res = await attempt(actor);
        if (may) expect(res.status, res.text).toBeLessThan(300);
        else if (actor === 'outsider') expect([403, 404], res.text).toContain(res.status);
        else expect(res.status, res.text).toBe(403);
      });
    }
  }

  it('DELETE /api/workspaces/{id}: only the owner, and then the workspace is gone', async () => {
    for (const actor of ['admin', 'member', 'viewer', 'outsider'] as const) {
      expect((await call(actor, 'DELETE', `/api/workspaces/${closedInvites.id}`)).status).toBe(403);
    }
    expect((await call('owner', 'DELETE', `/api/workspaces/${closedInvites.id}`)).status).toBe(204);
    expect((await call('owner', 'GET', `/api/workspaces/${closedInvites.id}`)).status).toBe(404);
  });
});
