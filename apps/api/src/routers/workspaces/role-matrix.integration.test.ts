import type { CreatedDebate, Workspace, WorkspaceList, WorkspaceRole } from '@verdict/contracts';
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
 * and every debate route a workspace changes, answers exactly the status written in its cell: the route's
 * success status when the role may; 403 FORBIDDEN when a member's role lacks the right, and for an outsider
 * on every workspace route (the spec's "not a workspace member"); 404 NOT_FOUND for an outsider on a debate
 * route (another user's private debate, as for any debate). Written out as a table, separately from the
 * code's own table (workspaces/roles.ts), so a wrong entry there shows here.
 */
type Actor = WorkspaceRole | 'outsider';
const ACTORS: Actor[] = ['owner', 'admin', 'member', 'viewer', 'outsider'];

/**
 * A row's cells: `ok` for the actors in `allowed`, 403 for the other members, `outsider` for the outsider
 * (403 unless the route answers 404 for what the caller cannot see).
 */
const cells = (allowed: Actor[], ok: number, outsider = 403): Record<Actor, number> =>
  Object.fromEntries(
    ACTORS.map((actor) => [actor, allowed.includes(actor) ? ok : actor === 'outsider' ? outsider : 403]),
  ) as Record<Actor, number>;
const EVERY_ROLE: Actor[] = ['owner', 'admin', 'member', 'viewer'];
const WRITERS: Actor[] = ['owner', 'admin', 'member'];
const ADMINS: Actor[] = ['owner', 'admin'];

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

  /** Each row: the route, the status each actor gets, and one attempt (fresh targets where it changes things). */
  const rows: [string, Partial<Record<Actor, number>>, (actor: Actor) => Promise<HttpResult>][] = [
    [
      'GET /api/workspaces/{id}',
      cells(EVERY_ROLE, 200),
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}`),
    ],
    [
      'PATCH /api/workspaces/{id}',
      cells(ADMINS, 200),
      (a) => call(a, 'PATCH', `/api/workspaces/${workspace.id}`, { description: `changed by ${a}` }),
    ],
    [
      'GET /api/workspaces/{id}/members',
      cells(EVERY_ROLE, 200),
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}/members`),
    ],
    [
      'POST /api/workspaces/{id}/members (member invites allowed)',
      cells(WRITERS, 201),
      (a) =>
        call(a, 'POST', `/api/workspaces/${workspace.id}/members`, {
          email: fromPool().email,
          role: 'viewer',
        }),
    ],
    [
      'POST /api/workspaces/{id}/members (member invites off)',
      cells(ADMINS, 201),
      (a) =>
        call(a, 'POST', `/api/workspaces/${closedInvites.id}/members`, {
          email: fromPool().email,
          role: 'viewer',
        }),
    ],
    [
      'POST /api/workspaces/{id}/members (as admin)',
      cells(ADMINS, 201),
      (a) =>
        call(a, 'POST', `/api/workspaces/${workspace.id}/members`, {
          email: fromPool().email,
          role: 'admin',
        }),
    ],
    [
      'DELETE /api/workspaces/{id}/members/{userId}',
      cells(ADMINS, 204),
      async (a) => {
        const target = fromPool();
        await invite(workspace.id, target, 'member');
        return call(a, 'DELETE', `/api/workspaces/${workspace.id}/members/${target.session.user.id}`);
      },
    ],
    [
      'PATCH /api/workspaces/{id}/members/{userId}',
      cells(ADMINS, 200),
      (a) =>
        call(a, 'PATCH', `/api/workspaces/${workspace.id}/members/${author.session.user.id}`, {
          role: 'member',
        }),
    ],
    [
      'GET /api/workspaces/{id}/debates',
      cells(EVERY_ROLE, 200),
      (a) => call(a, 'GET', `/api/workspaces/${workspace.id}/debates`),
    ],
    [
      'GET /api/invoices?workspaceId (purchases made for the workspace)',
      cells(ADMINS, 200),
      (a) => call(a, 'GET', `/api/invoices?workspaceId=${workspace.id}`),
    ],
    [
      'GET /api/debates?workspaceId',
      cells(EVERY_ROLE, 200),
      (a) => call(a, 'GET', `/api/debates?workspaceId=${workspace.id}`),
    ],
    [
      'POST /api/debates with workspaceId',
      cells(WRITERS, 201),
      (a) =>
        call(a, 'POST', '/api/debates', {
          question: 'Should the workspace adopt a shared decision log?',
          workspaceId: workspace.id,
        }),
    ],
    [
      'PATCH /api/debates/{id}/workspace (own debate in)',
      cells(WRITERS, 200),
      async (a) => {
        const own = await h.request<CreatedDebate>('POST', '/api/debates', {
          ...as(people[a]),
          body: { question: 'Should this personal debate join the workspace?' },
        });
        expect(own.status, own.text).toBe(201);
        return call(a, 'PATCH', `/api/debates/${own.json.debateId}/workspace`, { workspaceId: workspace.id });
      },
    ],
    [
      // Only roles that can have created a debate in the workspace have one of their own to move out.
      'PATCH /api/debates/{id}/workspace (own workspace debate out)',
      { owner: 200, admin: 200, member: 200 },
      async (a) => {
        const own = await call(a, 'POST', '/api/debates', {
          question: 'Should this workspace debate go back to its creator?',
          workspaceId: workspace.id,
        });
        expect(own.status, own.text).toBe(201);
        const id = (own.json as CreatedDebate).debateId;
        return call(a, 'PATCH', `/api/debates/${id}/workspace`, { workspaceId: null });
      },
    ],
    [
      'PATCH /api/debates/{id}/workspace (another member’s workspace debate out: its creator only)',
      cells([], 200, 404),
      async (a) => call(a, 'PATCH', `/api/debates/${await authorsDebate()}/workspace`, { workspaceId: null }),
    ],
    [
      'GET /api/debates/{id} (another member’s workspace debate)',
      cells(EVERY_ROLE, 200, 404),
      async (a) => call(a, 'GET', `/api/debates/${await authorsDebate()}`),
    ],
    [
      // Every member may read it, so each reaches the plan gate, which is the reader's own plan: the owner's
      // (enterprise) has the argument graph, the others' (free) have not. The outsider never gets that far.
      'GET /api/debates/{id}/argument-graph (another member’s workspace debate)',
      { owner: 200, admin: 402, member: 402, viewer: 402, outsider: 404 },
      async (a) => call(a, 'GET', `/api/debates/${await authorsDebate()}/argument-graph`),
    ],
    [
      // The evidence read is gated as the argument graph is: by the reader's own plan.
      'GET /api/debates/{id}/evidence (another member’s workspace debate)',
      { owner: 200, admin: 402, member: 402, viewer: 402, outsider: 404 },
      async (a) => call(a, 'GET', `/api/debates/${await authorsDebate()}/evidence`),
    ],
    [
      // No engine runs in this harness: passing the rights check ends at 409 DEBATE_NOT_RUNNING.
      'POST /api/debates/{id}/commands (another member’s workspace debate)',
      cells(ADMINS, 409, 404),
      async (a) => call(a, 'POST', `/api/debates/${await authorsDebate()}/commands`, { type: 'pause' }),
    ],
    [
      'DELETE /api/debates/{id} (another member’s workspace debate)',
      cells(ADMINS, 204, 404),
      async (a) => call(a, 'DELETE', `/api/debates/${await authorsDebate()}`),
    ],
    [
      'PATCH /api/debates/{id}/visibility (another member’s workspace debate)',
      cells(ADMINS, 200, 404),
      async (a) => call(a, 'PATCH', `/api/debates/${await authorsDebate()}/visibility`, { isPublic: true }),
    ],
    [
      'POST /api/share/{debateId} (another member’s workspace debate)',
      cells(ADMINS, 200, 404),
      async (a) => call(a, 'POST', `/api/share/${await authorsDebate()}`),
    ],
  ];

  beforeAll(async () => {
    // Every actor gets credits for the personal debates the move rows create.
    for (const actor of ACTORS) await h.core.billing.grantCredits(people[actor].session.user.id, 10);
  });

  for (const [route, expected, attempt] of rows) {
    for (const actor of ACTORS) {
      const status = expected[actor];
      if (status === undefined) continue;
      it(`${route}: ${actor} gets ${status}`, async () => {
        const res = await attempt(actor);
        expect(res.status, res.text).toBe(status);
      });
    }
  }

  it.each(ACTORS)(
    'GET /api/workspaces: %s gets 200, listing the workspace only if a member',
    async (actor) => {
      const res = await call(actor, 'GET', '/api/workspaces');
      expect(res.status, res.text).toBe(200);
      const ids = (res.json as WorkspaceList).workspaces.map((w) => w.id);
      if (actor === 'outsider') expect(ids).not.toContain(workspace.id);
      else expect(ids).toContain(workspace.id);
    },
  );

  it('DELETE /api/workspaces/{id}: only the owner, and then the workspace is gone', async () => {
    for (const actor of ['admin', 'member', 'viewer', 'outsider'] as const) {
      expect((await call(actor, 'DELETE', `/api/workspaces/${closedInvites.id}`)).status).toBe(403);
    }
    expect((await call('owner', 'DELETE', `/api/workspaces/${closedInvites.id}`)).status).toBe(204);
    expect((await call('owner', 'GET', `/api/workspaces/${closedInvites.id}`)).status).toBe(404);
  });
});
