import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAuditContext } from '../audit/audit-context.ts';
import { auditTrailOf, createTestCore, newUserCredentials, type TestCore } from '../testing/index.ts';

const ORIGIN = { ip: '203.0.113.9', userAgent: 'vitest', requestId: 'req-ws' };

describe("a workspace's audit trail", () => {
  let test: TestCore;
  beforeAll(async () => {
    test = await createTestCore();
  }, 60_000);
  afterAll(() => test?.cleanup());

  const core = () => test.core;
  const trail = (workspaceId: string) => auditTrailOf(test.core.db, { workspaceId });
  const newUser = async (plan: 'enterprise' | 'free' = 'free') =>
    core().accounts.createUser({ ...newUserCredentials('ws-audit'), plan });
  /** Runs `change` as `userId` signed in, as the tRPC middleware would. */
  const as = <T>(userId: string, change: () => Promise<T>) =>
    withAuditContext({ actor: { kind: 'user', userId }, origin: ORIGIN }, change);
  const newWorkspace = async (ownerId: string) =>
    as(ownerId, () =>
      core().workspaces.create(ownerId, {
        name: 'Audited',
        slug: `audited-${randomBytes(4).toString('hex')}`,
      }),
    );

  it('records a workspace’s creation and its changed fields, and nothing for a refused or empty change', async () => {
    const owner = await newUser('enterprise');
    const viewer = await newUser();
    const workspace = await newWorkspace(owner.id);
    await as(owner.id, () =>
      core().workspaceMembers.invite(owner.id, { id: workspace.id, email: viewer.email, role: 'viewer' }),
    );
    await as(owner.id, () =>
      core().workspaces.update(owner.id, {
        id: workspace.id,
        name: 'Renamed',
        settings: { allowMemberInvites: false, defaultDebateMode: workspace.settings.defaultDebateMode },
      }),
    );
    await as(owner.id, () => core().workspaces.update(owner.id, { id: workspace.id, name: 'Renamed' }));
    await expect(
      as(viewer.id, () => core().workspaces.update(viewer.id, { id: workspace.id, name: 'Hijacked' })),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const [created, , updated, ...rest] = await trail(workspace.id);
    expect(rest).toEqual([]);
    expect(created).toMatchObject({
      action: 'workspace.create',
      target_type: 'workspace',
      target_id: workspace.id,
      actor_kind: 'user',
      actor_id: owner.id,
      ip: ORIGIN.ip,
    });
    expect(created?.changes).toMatchObject({
      name: { before: null, after: 'Audited' },
      slug: { before: null, after: workspace.slug },
      ownerId: { before: null, after: owner.id },
    });
    expect(updated).toMatchObject({ action: 'workspace.update', actor_id: owner.id });
    expect(updated?.changes).toEqual({
      name: { before: 'Audited', after: 'Renamed' },
      allowMemberInvites: { before: true, after: false },
    });
  });

  it('records members added, given another role and removed, by member id, and nothing for refusals', async () => {
    const owner = await newUser('enterprise');
    const member = await newUser();
    const workspace = await newWorkspace(owner.id);
    await as(owner.id, () =>
      core().workspaceMembers.invite(owner.id, { id: workspace.id, email: member.email, role: 'member' }),
    );
    await expect(
      core().workspaceMembers.invite(owner.id, {
        id: workspace.id,
        email: 'nobody@example.com',
        role: 'member',
      }),
    ).rejects.toThrow(/No account/);
    await expect(
      core().workspaceMembers.changeRole(member.id, { id: workspace.id, userId: owner.id, role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await as(owner.id, () =>
      core().workspaceMembers.changeRole(owner.id, { id: workspace.id, userId: member.id, role: 'admin' }),
    );
    await as(owner.id, () => core().workspaceMembers.remove(owner.id, workspace.id, member.id));
    const entries = (await trail(workspace.id)).slice(1);
    expect(
      entries.map((entry) => [entry.action, entry.target_type, entry.target_id, entry.actor_id]),
    ).toEqual([
      ['workspace_member.add', 'workspace_member', member.id, owner.id],
      ['workspace_member.role_change', 'workspace_member', member.id, owner.id],
      ['workspace_member.remove', 'workspace_member', member.id, owner.id],
    ]);
    expect(entries.map((entry) => entry.changes)).toEqual([
      { role: { before: null, after: 'member' } },
      { role: { before: 'member', after: 'admin' } },
      { role: { before: 'admin', after: null } },
    ]);
  });

  it('records a workspace’s deletion in its trail, which outlives it, and nothing for a member’s refused one', async () => {
    const owner = await newUser('enterprise');
    const admin = await newUser();
    const workspace = await newWorkspace(owner.id);
    await as(owner.id, () =>
      core().workspaceMembers.invite(owner.id, { id: workspace.id, email: admin.email, role: 'admin' }),
    );
    await expect(
      as(admin.id, () => core().debates.removeWithWorkspace(admin.id, workspace.id)),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await as(owner.id, () => core().debates.removeWithWorkspace(owner.id, workspace.id));
    const entries = await trail(workspace.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'workspace.create',
      'workspace_member.add',
      'workspace.delete',
    ]);
    expect(entries[2]).toMatchObject({ target_id: workspace.id, actor_id: owner.id });
    expect(entries[2]?.changes).toEqual({
      name: { before: 'Audited', after: null },
      slug: { before: workspace.slug, after: null },
    });
  });
});
