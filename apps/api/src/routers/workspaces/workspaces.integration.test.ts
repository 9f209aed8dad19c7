import {
  type CreatedDebate,
  type DebateObject,
  DebatePage,
  Workspace,
  WorkspaceList,
  type WorkspaceMember,
  WorkspaceMemberList,
} from '@verdict/contracts';
import { refundDebate } from '@verdict/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectError,
  type Harness,
  type RequestOptions,
  registerUser,
  startServer,
  type TestUser,
} from '../../testing/http-harness.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';
const QUESTION = 'Should the research team publish its quarterly findings openly?';

describe('workspaces', () => {
  let h: Harness;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let workspace: Workspace;

  const as = (user: TestUser): RequestOptions => ({ cookie: user.cookie });
  const balance = async (user: TestUser) =>
    (
      await h.core.db.execute<{ credit_balance: number }>('select credit_balance from users where id = ?', [
        user.session.user.id,
      ])
    )[0]?.credit_balance;
  const newWorkspace = async (by: TestUser, slug: string, extra: Record<string, unknown> = {}) => {
    const res = await h.request<Workspace>('POST', '/api/workspaces', {
      ...as(by),
      body: { name: `Team ${slug}`, slug, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return Workspace.parse(res.json);
  };
  const invite = (by: TestUser, workspaceId: string, email: string, role = 'member') =>
    h.request<WorkspaceMember>('POST', `/api/workspaces/${workspaceId}/members`, {
      ...as(by),
      body: { email, role },
    });
  const createIn = (by: TestUser, workspaceId: string, body: Record<string, unknown> = {}, headers = {}) =>
    h.request<CreatedDebate>('POST', '/api/debates', {
      ...as(by),
      body: { question: QUESTION, workspaceId, ...body },
      headers,
    });

  beforeAll(async () => {
    h = await startServer({ env: { CONCURRENT_DEBATES: '100' } });
    owner = await registerUser(h);
    admin = await registerUser(h);
    member = await registerUser(h);
    stranger = await registerUser(h);
    await h.core.accounts.setPlan(owner.session.user.id, 'enterprise');
    await h.core.billing.grantCredits(owner.session.user.id, 100);
    workspace = await newWorkspace(owner, 'research', { description: 'The research team' });
    expect((await invite(owner, workspace.id, admin.email, 'admin')).status).toBe(201);
    expect((await invite(owner, workspace.id, member.email)).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  describe('creating one', () => {
    it('needs BYOK Pro or Enterprise: others get 402 BYOK_REQUIRED naming the plan and where to get it', async () => {
      const res = await h.request('POST', '/api/workspaces', {
        ...as(stranger),
        body: { name: 'Mine', slug: 'strangers-team' },
      });
      const error = expectError(res, 'BYOK_REQUIRED', { extras: ['requiredPlan', 'upgradeUrl'] }) as {
        requiredPlan?: string;
        upgradeUrl?: string;
      };
      expect(error.requiredPlan).toBe('byok_pro');
      expect(error.upgradeUrl).toMatch(/\/pricing$/);
    });

    it('answers the workspace with the caller as owner, its defaults, and the seats of the plan', () => {
      expect(workspace).toMatchObject({
        slug: 'research',
        description: 'The research team',
        ownerId: owner.session.user.id,
        role: 'owner',
        memberCount: 1,
        seats: null,
        settings: {
          allowMemberInvites: true,
          defaultDebateMode: 'fast',
          requireApprovalForPublicDebates: false,
        },
      });
    });

    it('refuses a slug taken anywhere with 409 CONFLICT, and bad slugs with 400 naming the field', async () => {
      expectError(
        await h.request('POST', '/api/workspaces', {
          ...as(owner),
          body: { name: 'Again', slug: 'research' },
        }),
        'CONFLICT',
      );
      for (const slug of ['a', 'Upper', 'with space', 'x'.repeat(49), 'under_score', 'émoji']) {
        const error = expectError(
          await h.request('POST', '/api/workspaces', { ...as(owner), body: { name: 'Bad', slug } }),
          'VALIDATION_ERROR',
        );
        expect(error.details?.map((d) => d.path)).toEqual(['slug']);
      }
      const ok = await h.request('POST', '/api/workspaces', {
        ...as(owner),
        body: { name: 'Ok', slug: '42-a' },
      });
      expect(ok.status, ok.text).toBe(201);
    });
  });

  describe('reading', () => {
    it('lists the workspaces each person belongs to, with their role and the member count', async () => {
      const mine = WorkspaceList.parse((await h.request('GET', '/api/workspaces', as(member))).json);
      expect(mine.workspaces.map((w) => [w.slug, w.role, w.memberCount])).toEqual([
        ['research', 'member', 3],
      ]);
      const none = WorkspaceList.parse((await h.request('GET', '/api/workspaces', as(stranger))).json);
      expect(none.workspaces).toEqual([]);
    });

    it('is 404 for a missing workspace and 403 for someone outside it', async () => {
      expectError(await h.request('GET', `/api/workspaces/${MISSING}`, as(member)), 'NOT_FOUND');
      expectError(await h.request('GET', `/api/workspaces/${workspace.id}`, as(stranger)), 'FORBIDDEN');
      expectError(
        await h.request('GET', `/api/workspaces/${workspace.id}/members`, as(stranger)),
        'FORBIDDEN',
      );
    });

    it('lists members with the owner first, then by joining order', async () => {
      const res = await h.request('GET', `/api/workspaces/${workspace.id}/members`, as(member));
      const list = WorkspaceMemberList.parse(res.json);
      expect(list.members.map((m) => [m.email, m.role])).toEqual([
        [owner.email, 'owner'],
        [admin.email, 'admin'],
        [member.email, 'member'],
      ]);
      expect(list.seats).toBeNull();
    });
  });

  describe('updating', () => {
    it('changes only the fields and settings given', async () => {
      const res = await h.request<Workspace>('PATCH', `/api/workspaces/${workspace.id}`, {
        ...as(admin),
        body: { settings: { defaultDebateMode: 'balanced' } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.settings).toEqual({
        allowMemberInvites: true,
        defaultDebateMode: 'balanced',
        requireApprovalForPublicDebates: false,
      });
      expect(res.json.description).toBe('The research team');
      expect(res.json.role).toBe('admin');
      const cleared = await h.request<Workspace>('PATCH', `/api/workspaces/${workspace.id}`, {
        ...as(owner),
        body: { description: null },
      });
      expect(cleared.json.description).toBeNull();
    });

    it('refuses unknown settings and fields with 400', async () => {
      for (const body of [{ settings: { allowEverything: true } }, { slug: 'renamed' }, { name: '' }]) {
        expectError(
          await h.request('PATCH', `/api/workspaces/${workspace.id}`, { ...as(owner), body }),
          'VALIDATION_ERROR',
        );
      }
    });
  });

  describe('members', () => {
    it('invites existing accounts only (404), once (409)', async () => {
      expectError(await invite(owner, workspace.id, 'nobody-here@example.com'), 'NOT_FOUND');
      expectError(await invite(owner, workspace.id, member.email.toUpperCase()), 'CONFLICT');
    });

    it('never gives the owner role (400), never changes or removes the owner (403)', async () => {
      const newcomer = await registerUser(h);
      expectError(await invite(owner, workspace.id, newcomer.email, 'owner'), 'VALIDATION_ERROR');
      const ownerPath = `/api/workspaces/${workspace.id}/members/${owner.session.user.id}`;
      expectError(
        await h.request('PATCH', ownerPath, { ...as(admin), body: { role: 'viewer' } }),
        'FORBIDDEN',
      );
      expectError(await h.request('DELETE', ownerPath, as(admin)), 'FORBIDDEN');
      expectError(await h.request('DELETE', ownerPath, as(owner)), 'FORBIDDEN');
      expectError(
        await h.request('PATCH', `/api/workspaces/${workspace.id}/members/${member.session.user.id}`, {
          ...as(admin),
          body: { role: 'owner' },
        }),
        'VALIDATION_ERROR',
      );
    });

    it('lets a member leave, after which the workspace is closed to them', async () => {
      const leaver = await registerUser(h);
      expect((await invite(member, workspace.id, leaver.email, 'viewer')).status).toBe(201);
      const path = `/api/workspaces/${workspace.id}/members/${leaver.session.user.id}`;
      expect((await h.request('DELETE', path, as(leaver))).status).toBe(204);
      expectError(await h.request('GET', `/api/workspaces/${workspace.id}`, as(leaver)), 'FORBIDDEN');
      expectError(await h.request('DELETE', path, as(owner)), 'NOT_FOUND');
    });

    it('fills no more seats than the owner’s plan has: 402 SEAT_LIMIT_REACHED, also under parallel invites', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'byok_pro');
      const team = await newWorkspace(boss, 'ten-seats');
      expect(team.seats).toBe(10);
      const people: TestUser[] = [];
      for (let i = 0; i < 12; i++) people.push(await registerUser(h));
      const answers = await Promise.all(people.map((p) => invite(boss, team.id, p.email)));
      expect(answers.filter((r) => r.status === 201)).toHaveLength(9);
      const refused = answers.filter((r) => r.status !== 201);
      expect(refused).toHaveLength(3);
      const error = expectError(refused[0] as (typeof answers)[number], 'SEAT_LIMIT_REACHED', {
        extras: ['seats', 'memberCount', 'upgradeUrl'],
      }) as { seats?: number; memberCount?: number };
      expect(error).toMatchObject({ seats: 10, memberCount: 10 });
      const list = WorkspaceMemberList.parse(
        (await h.request('GET', `/api/workspaces/${team.id}/members`, as(boss))).json,
      );
      expect(list.members).toHaveLength(10);
    });

    it('stop inviting once the owner’s plan loses workspaces: 402 BYOK_REQUIRED before any seat count', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'byok_pro');
      const team = await newWorkspace(boss, 'lapsed-team');
      const [first, second, third] = [await registerUser(h), await registerUser(h), await registerUser(h)];
      expect((await invite(boss, team.id, first.email, 'admin')).status).toBe(201);
      // Free has one seat, already the owner's: the plan, not the seats, is what refuses.
      for (const plan of ['free', 'pro', 'byok'] as const) {
        await h.core.accounts.setPlan(boss.session.user.id, plan);
        for (const inviter of [boss, first]) {
          const error = expectError(await invite(inviter, team.id, second.email), 'BYOK_REQUIRED', {
            extras: ['requiredPlan', 'upgradeUrl'],
          }) as { requiredPlan?: string; upgradeUrl?: string };
          expect(error.requiredPlan, plan).toBe('byok_pro');
          expect(error.upgradeUrl).toMatch(/\/pricing$/);
        }
      }
      // Rights are still checked first: a stranger learns nothing about the owner's plan.
      expectError(await invite(stranger, team.id, third.email), 'FORBIDDEN');
      await h.core.accounts.setPlan(boss.session.user.id, 'byok_pro');
      expect((await invite(first, team.id, second.email)).status).toBe(201);
    });

    it('lets at most one of two admins demoting each other at the same moment succeed', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'enterprise');
      const team = await newWorkspace(boss, 'duel');
      for (let round = 0; round < 8; round++) {
        const [left, right] = [await registerUser(h), await registerUser(h)];
        for (const admin of [left, right]) {
          expect((await invite(boss, team.id, admin.email, 'admin')).status).toBe(201);
        }
        const demote = (by: TestUser, whom: TestUser) =>
          h.request('PATCH', `/api/workspaces/${team.id}/members/${whom.session.user.id}`, {
            ...as(by),
            body: { role: 'viewer' },
          });
        const answers = await Promise.all([demote(left, right), demote(right, left)]);
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses, `round ${round}`).toEqual([200, 403]);
        const roles = (
          await h.core.db.execute<{ role: string }>(
            'select role from workspace_members where workspace_id = ? and user_id in (?, ?) order by role',
            [team.id, left.session.user.id, right.session.user.id],
          )
        ).map((row) => row.role);
        expect(roles, `round ${round}`).toEqual(['admin', 'viewer']);
      }
    });

    it('lets an admin removed at the same moment they remove another admin do nothing', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'enterprise');
      const team = await newWorkspace(boss, 'purge');
      for (let round = 0; round < 8; round++) {
        const [left, right] = [await registerUser(h), await registerUser(h)];
        for (const admin of [left, right]) {
          expect((await invite(boss, team.id, admin.email, 'admin')).status).toBe(201);
        }
        const remove = (by: TestUser, whom: TestUser) =>
          h.request('DELETE', `/api/workspaces/${team.id}/members/${whom.session.user.id}`, as(by));
        const answers = await Promise.all([remove(left, right), remove(right, left)]);
        expect(answers.map((a) => a.status).sort(), `round ${round}`).toEqual([204, 403]);
        const [{ n } = { n: -1 }] = await h.core.db.execute<{ n: number }>(
          'select count(*)::int as n from workspace_members where workspace_id = ? and user_id in (?, ?)',
          [team.id, left.session.user.id, right.session.user.id],
        );
        expect(n, `round ${round}`).toBe(1);
      }
    });
  });

  describe('debates', () => {
    it('are paid by the owner, take the workspace’s default mode, and are read by every member', async () => {
      const before = await balance(owner);
      const memberBefore = await balance(member);
      const res = await createIn(member, workspace.id);
      expect(res.status, res.text).toBe(201);
      // balanced (the workspace default since the update above) costs 3, taken from the owner.
      expect(await balance(owner)).toBe((before ?? 0) - 3);
      expect(await balance(member)).toBe(memberBefore);
      for (const reader of [owner, admin, member]) {
        const read = await h.request<DebateObject>('GET', `/api/debates/${res.json.debateId}`, as(reader));
        expect(read.status, read.text).toBe(200);
        expect(read.json).toMatchObject({ mode: 'balanced', workspaceId: workspace.id });
      }
      expectError(await h.request('GET', `/api/debates/${res.json.debateId}`, as(stranger)), 'NOT_FOUND');
      const listed = DebatePage.parse(
        (await h.request('GET', `/api/workspaces/${workspace.id}/debates`, as(admin))).json,
      );
      expect(listed.debates.map((d) => d.id)).toContain(res.json.debateId);
      const viaDebates = DebatePage.parse(
        (await h.request('GET', `/api/debates?workspaceId=${workspace.id}`, as(owner))).json,
      );
      expect(viaDebates.debates.map((d) => d.id)).toContain(res.json.debateId);
      // The admin's own list holds only what the admin created.
      const adminsOwn = DebatePage.parse((await h.request('GET', '/api/debates', as(admin))).json);
      expect(adminsOwn.debates.map((d) => d.id)).not.toContain(res.json.debateId);
    });

    it('run on provider keys the member sends when the owner is on BYOK Pro, charging nobody', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'byok_pro');
      const team = await newWorkspace(boss, 'byok-team');
      expect((await invite(boss, team.id, member.email)).status).toBe(201);
      expectError(await createIn(member, team.id), 'VALIDATION_ERROR');
      const res = await createIn(member, team.id, {}, { 'X-Provider-Keys': 'openai:sk-test-member' });
      expect(res.status, res.text).toBe(201);
      const [row] = await h.core.db.execute<{ funding_source: string }>(
        'select funding_source from debates where id = ?',
        [res.json.debateId],
      );
      expect(row?.funding_source).toBe('byok');
    });

    it('stop when the owner’s plan loses workspaces: 402 BYOK_REQUIRED, while reading goes on', async () => {
      const boss = await registerUser(h);
      await h.core.accounts.setPlan(boss.session.user.id, 'enterprise');
      await h.core.billing.grantCredits(boss.session.user.id, 10);
      const team = await newWorkspace(boss, 'downgraded');
      const first = await createIn(boss, team.id);
      expect(first.status, first.text).toBe(201);
      await h.core.accounts.setPlan(boss.session.user.id, 'pro');
      expectError(await createIn(boss, team.id), 'BYOK_REQUIRED', { extras: ['requiredPlan', 'upgradeUrl'] });
      expect((await h.request('GET', `/api/workspaces/${team.id}/debates`, as(boss))).status).toBe(200);
    });

    it('are refused to outsiders (403) and to viewers (403)', async () => {
      expectError(await createIn(stranger, workspace.id), 'FORBIDDEN');
      expectError(await createIn(stranger, MISSING), 'FORBIDDEN');
      const viewer = await registerUser(h);
      expect((await invite(owner, workspace.id, viewer.email, 'viewer')).status).toBe(201);
      expectError(await createIn(viewer, workspace.id), 'FORBIDDEN');
    });

    it('move in and out by their creator only; a viewer cannot move one in', async () => {
      await h.core.billing.grantCredits(member.session.user.id, 5);
      const own = await h.request<CreatedDebate>('POST', '/api/debates', {
        ...as(member),
        body: { question: 'Should I bring this personal question to the team?' },
      });
      expect(own.status, own.text).toBe(201);
      const path = `/api/debates/${own.json.debateId}/workspace`;
      expectError(
        await h.request('PATCH', path, { ...as(admin), body: { workspaceId: workspace.id } }),
        'NOT_FOUND',
      );
      const moved = await h.request('PATCH', path, { ...as(member), body: { workspaceId: workspace.id } });
      expect(moved.json).toEqual({ id: own.json.debateId, workspaceId: workspace.id });
      expect((await h.request('GET', `/api/debates/${own.json.debateId}`, as(admin))).status).toBe(200);
      expectError(await h.request('PATCH', path, { ...as(admin), body: { workspaceId: null } }), 'FORBIDDEN');
      const back = await h.request('PATCH', path, { ...as(member), body: { workspaceId: null } });
      expect(back.json).toEqual({ id: own.json.debateId, workspaceId: null });
      expectError(await h.request('GET', `/api/debates/${own.json.debateId}`, as(admin)), 'NOT_FOUND');
      expectError(await h.request('PATCH', path, { ...as(member), body: {} }), 'VALIDATION_ERROR');
      expectError(
        await h.request('PATCH', path, { ...as(member), body: { workspaceId: MISSING } }),
        'FORBIDDEN',
      );
    });

    it('with approval required, only admins and the owner make them public or share them', async () => {
      await h.request('PATCH', `/api/workspaces/${workspace.id}`, {
        ...as(owner),
        body: { settings: { requireApprovalForPublicDebates: true } },
      });
      try {
        const created = await createIn(member, workspace.id, { mode: 'fast' });
        const id = created.json.debateId;
        expectError(
          await h.request('PATCH', `/api/debates/${id}/visibility`, {
            ...as(member),
            body: { isPublic: true },
          }),
          'FORBIDDEN',
        );
        expectError(await h.request('POST', `/api/share/${id}`, as(member)), 'FORBIDDEN');
        const approved = await h.request('PATCH', `/api/debates/${id}/visibility`, {
          ...as(admin),
          body: { isPublic: true },
        });
        expect(approved.status, approved.text).toBe(200);
        expect((await h.request('POST', `/api/share/${id}`, as(owner))).status).toBe(200);
      } finally {
        await h.request('PATCH', `/api/workspaces/${workspace.id}`, {
          ...as(owner),
          body: { settings: { requireApprovalForPublicDebates: false } },
        });
      }
    });
  });

  describe('the seams with other features', () => {
    /** What the engine's finish does to a debate that fails on a provider error: failed, and refunded. */
    const fail = async (id: string) => {
      await h.core.db.execute(`update debates set status = 'failed' where id = ?`, [id]);
      await h.core.db.em().transactional((em) => refundDebate(em, id, new Date()));
    };
    const failed = async (by: TestUser, workspaceId: string) => {
      const created = await createIn(by, workspaceId, { mode: 'fast' });
      expect(created.status, created.text).toBe(201);
      await fail(created.json.debateId);
      return created.json.debateId;
    };

    it('lets members read and write comments on a workspace debate; outsiders still may not', async () => {
      const id = (await createIn(member, workspace.id, { mode: 'fast' })).json.debateId;
      const posted = await h.request('POST', `/api/debates/${id}/comments`, {
        ...as(admin),
        body: { content: 'The admin weighs in' },
      });
      expect(posted.status, posted.text).toBe(201);
      const read = await h.request<{ comments: { content: string }[] }>(
        'GET',
        `/api/debates/${id}/comments`,
        as(member),
      );
      expect(read.json.comments.map((c) => c.content)).toEqual(['The admin weighs in']);
      expectError(await h.request('GET', `/api/debates/${id}/comments`, as(stranger)), 'FORBIDDEN');
    });

    it('retries a workspace debate by the rules of a create: charged to the owner, refused once the creator left', async () => {
      const leaver = await registerUser(h);
      expect((await invite(owner, workspace.id, leaver.email)).status).toBe(201);
      const id = await failed(leaver, workspace.id);
      const before = await balance(owner);
      const retried = await h.request('POST', `/api/debates/${id}/retry`, as(leaver));
      expect(retried.status, retried.text).toBe(200);
      expect(await balance(owner)).toBe((before ?? 0) - 1);
      await fail(id);
      await h.request(
        'DELETE',
        `/api/workspaces/${workspace.id}/members/${leaver.session.user.id}`,
        as(leaver),
      );
      expectError(await h.request('POST', `/api/debates/${id}/retry`, as(leaver)), 'FORBIDDEN');
    });

    it('keeps approval before publishing for a creator who left, and for a public debate moved in', async () => {
      await h.request('PATCH', `/api/workspaces/${workspace.id}`, {
        ...as(owner),
        body: { settings: { requireApprovalForPublicDebates: true } },
      });
      try {
        const leaver = await registerUser(h);
        expect((await invite(owner, workspace.id, leaver.email)).status).toBe(201);
        const id = (await createIn(leaver, workspace.id, { mode: 'fast' })).json.debateId;
        await h.request(
          'DELETE',
          `/api/workspaces/${workspace.id}/members/${leaver.session.user.id}`,
          as(leaver),
        );
        expectError(
          await h.request('PATCH', `/api/debates/${id}/visibility`, {
            ...as(leaver),
            body: { isPublic: true },
          }),
          'FORBIDDEN',
        );
        expectError(await h.request('POST', `/api/share/${id}`, as(leaver)), 'FORBIDDEN');

        await h.core.billing.grantCredits(member.session.user.id, 1);
        const own = await h.request<CreatedDebate>('POST', '/api/debates', {
          ...as(member),
          body: { question: 'Should this public question join a team that approves first?' },
        });
        await h.request('PATCH', `/api/debates/${own.json.debateId}/visibility`, {
          ...as(member),
          body: { isPublic: true },
        });
        expectError(
          await h.request('PATCH', `/api/debates/${own.json.debateId}/workspace`, {
            ...as(member),
            body: { workspaceId: workspace.id },
          }),
          'FORBIDDEN',
        );
      } finally {
        await h.request('PATCH', `/api/workspaces/${workspace.id}`, {
          ...as(owner),
          body: { settings: { requireApprovalForPublicDebates: false } },
        });
      }
    });
  });

  it("shows its admins only the owner's purchases made for it, never the owner's personal ones", async () => {
    const insert = async (workspaceId: string | null) =>
      (
        await h.core.db.execute<{ id: string }>(
          `insert into invoices (user_id, workspace_id, type, description, amount_cents, currency, status, metadata)
           values (?, ?, 'credit_pack', '500 credits', 1999, 'usd', 'paid', '{}') returning id`,
          [owner.session.user.id, workspaceId],
        )
      )[0]?.id;
    const personal = await insert(null);
    const forTeam = await insert(workspace.id);
    const elsewhere = await newWorkspace(owner, 'elsewhere');
    await insert(elsewhere.id);
    for (const reader of [admin, owner]) {
      const listed = await h.request<{ invoices: { id: string; workspaceId: string | null }[] }>(
        'GET',
        `/api/invoices?workspaceId=${workspace.id}`,
        as(reader),
      );
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json.invoices).toEqual([
        expect.objectContaining({ id: forTeam, workspaceId: workspace.id }),
      ]);
    }
    // The admin reads no single invoice of the owner's, not even the team's: reading by id is own only.
    expectError(await h.request('GET', `/api/invoices/${forTeam}`, as(admin)), 'NOT_FOUND');
    expectError(await h.request('GET', `/api/invoices/${personal}`, as(admin)), 'NOT_FOUND');
    const adminsOwn = await h.request<{ invoices: unknown[] }>('GET', '/api/invoices', as(admin));
    expect(adminsOwn.json.invoices).toEqual([]);
    const ownersOwn = await h.request<{ invoices: { id: string }[] }>('GET', '/api/invoices', as(owner));
    expect(ownersOwn.json.invoices.map((i) => i.id)).toContain(personal);
    expectError(await h.request('GET', `/api/invoices?workspaceId=${workspace.id}`, as(member)), 'FORBIDDEN');
    expectError(await h.request('GET', `/api/invoices?workspaceId=${MISSING}`, as(admin)), 'NOT_FOUND');
  });

  it('deleting one removes its members and every debate in it, and nothing else', async () => {
    const boss = await registerUser(h);
    await h.core.accounts.setPlan(boss.session.user.id, 'enterprise');
    await h.core.billing.grantCredits(boss.session.user.id, 10);
    const doomed = await newWorkspace(boss, 'doomed');
    expect((await invite(boss, doomed.id, member.email)).status).toBe(201);
    const inside = (await createIn(member, doomed.id, { mode: 'fast' })).json.debateId;
    const outside = (await createIn(member, workspace.id, { mode: 'fast' })).json.debateId;
    expect((await h.request('DELETE', `/api/workspaces/${doomed.id}`, as(boss))).status).toBe(204);
    const count = async (sql: string, id: string) =>
      (await h.core.db.execute<{ n: number }>(sql, [id]))[0]?.n;
    expect(await count('select count(*)::int as n from debates where id = ?', inside)).toBe(0);
    expect(await count('select count(*)::int as n from debates where id = ?', outside)).toBe(1);
    expect(
      await count('select count(*)::int as n from workspace_members where workspace_id = ?', doomed.id),
    ).toBe(0);
    expectError(await h.request('GET', `/api/workspaces/${doomed.id}`, as(boss)), 'NOT_FOUND');
    expectError(await h.request('DELETE', `/api/workspaces/${doomed.id}`, as(boss)), 'NOT_FOUND');
  });
});
