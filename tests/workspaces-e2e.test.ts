import { eventually } from '@verdict/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBody } from './support/api-client.ts';
import { MODES, type ProUser, type Stack, signUpPro, startStack } from './support/stack.ts';

// Workspaces over HTTP, through the client generated from the served document, in each mode: a team is
// formed, a member's debate is paid by the owner and read by all.
describe.each(MODES)('workspaces end to end (%s)', (mode) => {
  let stack: Stack;
  let owner: ProUser;
  let member: ProUser;
  let viewer: ProUser;

  const creditsOf = async (user: ProUser) =>
    expectBody(await user.client.GET('/api/billing/balance'), 200).balance;

  beforeAll(async () => {
    stack = await startStack(mode, 'team');
    [owner, member, viewer] = await Promise.all([
      signUpPro(stack, 'owner', 'enterprise'),
      signUpPro(stack, 'member'),
      signUpPro(stack, 'viewer'),
    ]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('forms a team whose debates the owner pays for and every member reads', async () => {
    const workspace = expectBody(
      await owner.client.POST('/api/workspaces', {
        body: { name: 'Platform team', slug: 'platform-e2e', settings: { defaultDebateMode: 'fast' } },
      }),
      201,
    );
    for (const [user, role] of [
      [member, 'member'],
      [viewer, 'viewer'],
    ] as const) {
      expectBody(
        await owner.client.POST('/api/workspaces/{id}/members', {
          params: { path: { id: workspace.id } },
          body: { email: user.email, role },
        }),
        201,
      );
    }
    const members = expectBody(
      await viewer.client.GET('/api/workspaces/{id}/members', { params: { path: { id: workspace.id } } }),
      200,
    );
    expect(members.members.map((m) => m.role)).toEqual(['owner', 'member', 'viewer']);

    const before = await creditsOf(owner);
    const { debateId } = expectBody(
      await member.client.POST('/api/debates', {
        body: {
          question: 'Should the platform team adopt trunk-based development?',
          workspaceId: workspace.id,
        },
      }),
      201,
    );
    const done = await eventually(
      () => viewer.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } }),
      (res) => res.data?.status === 'completed',
      30_000,
    );
    expect(done.data?.workspaceId).toBe(workspace.id);
    expect(await creditsOf(owner)).toBe(before - 1);

    const refused = await viewer.client.POST('/api/debates', {
      body: { question: 'Should viewers be able to start debates here?', workspaceId: workspace.id },
    });
    expect(refused.response.status).toBe(403);
    const listed = expectBody(
      await owner.client.GET('/api/workspaces/{id}/debates', {
        params: { path: { id: workspace.id }, query: { limit: 10 } },
      }),
      200,
    );
    expect(listed.debates.map((d) => d.id)).toEqual([debateId]);

    const renamed = expectBody(
      await owner.client.PATCH('/api/workspaces/{id}', {
        params: { path: { id: workspace.id } },
        body: { name: 'Platform and infra', settings: { requireApprovalForPublicDebates: true } },
      }),
      200,
    );
    expect(renamed.settings.requireApprovalForPublicDebates).toBe(true);
    const promoted = expectBody(
      await owner.client.PATCH('/api/workspaces/{id}/members/{userId}', {
        params: { path: { id: workspace.id, userId: viewer.userId } },
        body: { role: 'member' },
      }),
      200,
    );
    expect(promoted.role).toBe('member');
    const { debateId: personal } = expectBody(
      await viewer.client.POST('/api/debates', {
        body: { question: 'Should my own question about on-call pay go to the team?' },
      }),
      201,
    );
    expect(
      expectBody(
        await viewer.client.PATCH('/api/debates/{id}/workspace', {
          params: { path: { id: personal } },
          body: { workspaceId: workspace.id },
        }),
        200,
      ),
    ).toEqual({ id: personal, workspaceId: workspace.id });
    const left = await viewer.client.DELETE('/api/workspaces/{id}/members/{userId}', {
      params: { path: { id: workspace.id, userId: viewer.userId } },
    });
    expect(left.response.status).toBe(204);

    const deleted = await owner.client.DELETE('/api/workspaces/{id}', {
      params: { path: { id: workspace.id } },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await member.client.GET('/api/debates/{id}', { params: { path: { id: debateId } } });
    expect(gone.response.status).toBe(404);
  });
});
