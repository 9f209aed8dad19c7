import type { AuditEntry, AuditListQuery, Plan } from '@verdict/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditOwner } from '../audit/audit-chains.ts';
import { type AuditActor, withAuditContext } from '../audit/audit-context.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Clock } from '../shared/clock.ts';
import { createTestCore, type TestCore, uniqueEmail } from '../testing/index.ts';

const MINUTE = 60_000;
const START = Date.parse('2026-06-01T00:00:00.000Z');

describe.each(['postgres', 'pglite'] as const)('reading the audit trails (%s)', (database) => {
  let test: TestCore;
  let now = START;
  const clock: Clock = { now: () => now };
  beforeAll(async () => {
    test = await createTestCore({}, { database });
  });
  afterAll(() => test.cleanup());

  const core = () => test.core;
  /**
   * An account whose trail holds only what a test seeds: written as a row, where signing up would record its
   * creation (the accounts' tests check that) and number the seeded entries after it.
   */
  const user = async (plan: Plan) => {
    const id = crypto.randomUUID();
    await core().db.execute('insert into users (id, email, name, plan) values (?, ?, ?, ?)', [
      id,
      uniqueEmail('audit'),
      'Audit',
      plan,
    ]);
    return id;
  };
  const origin = { ip: '198.51.100.4', userAgent: 'audit-test', requestId: null };
  /** `count` entries in one transaction, each a minute after the last, made by `actor`. */
  const seed = (owner: AuditOwner, actor: AuditActor, actions: string[]) =>
    withAuditContext({ actor, origin }, () =>
      core()
        .db.em()
        .transactional(async (em) => {
          for (const [i, action] of actions.entries()) {
            now += MINUTE;
            await recordAudit(em, clock, {
              owner,
              action,
              target: { type: action.split('.')[0] ?? 'x', id: `t${i % 3}` },
              changes: { name: { before: `n${i}`, after: `n${i + 1}` } },
            });
          }
        }),
    );
  const list = (userId: string, query: Partial<AuditListQuery> = {}) =>
    core().audit.list(userId, { limit: 50, ...query });
  const status = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code ?? String(error),
    );
  const collect = async (entries: AsyncIterable<AuditEntry>) => {
    const all: AuditEntry[] = [];
    for await (const entry of entries) all.push(entry);
    return all;
  };

  it("lists the caller's own trail newest first, filtered by actor, action, prefix, target and time", async () => {
    const me = await user('pro');
    const other = await user('pro');
    const mine: AuditOwner = { accountId: me };
    const fromTime = new Date(now + 2 * MINUTE).toISOString();
    await seed(mine, { kind: 'user', userId: me }, ['webhook.create', 'webhook.update', 'api_key.create']);
    const toTime = new Date(now + 1).toISOString();
    await seed(mine, { kind: 'key', userId: other, keyId: crypto.randomUUID() }, ['webhook.delete']);

    const all = await list(me);
    expect(all.entries.map((entry) => entry.seq)).toEqual([4, 3, 2, 1]);
    expect(all.nextCursor).toBeNull();
    expect(all.entries[3]).toMatchObject({
      chain: `account:${me}`,
      action: 'webhook.create',
      actor: { kind: 'user', id: me, keyId: null },
      target: { type: 'webhook', id: 't0' },
      origin,
      changes: { name: { before: 'n0', after: 'n1' } },
    });
    expect(all.entries[2]?.prevHash).toBe(all.entries[3]?.hash);

    const seqs = async (query: Partial<AuditListQuery>) =>
      (await list(me, query)).entries.map((entry) => entry.seq);
    expect(await seqs({ actor: other })).toEqual([4]);
    expect(await seqs({ actor: me })).toEqual([3, 2, 1]);
    expect(await seqs({ action: 'webhook.update' })).toEqual([2]);
    expect(await seqs({ action: 'webhook.' })).toEqual([4, 2, 1]);
    // Without its dot a prefix is an exact action, which none is.
    expect(await seqs({ action: 'webhook' })).toEqual([]);
    expect(await seqs({ targetType: 'api_key' })).toEqual([3]);
    expect(await seqs({ targetId: 't0' })).toEqual([4, 1]);
    expect(await seqs({ from: fromTime, to: toTime })).toEqual([3, 2]);
  });

  it('pages by cursor with no entry twice or missed, and refuses a cursor it did not give', async () => {
    const me = await user('pro');
    await seed({ accountId: me }, { kind: 'user', userId: me }, Array(7).fill('schedule.update'));
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const page = await list(me, { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.entries.map((entry) => entry.seq));
      if (!page.nextCursor) {
        expect(pages).toBe(3);
        break;
      }
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(await status(list(me, { cursor: 'not-a-cursor' }))).toBe('VALIDATION_ERROR');
  });

  it("lets a workspace's owner and admins read its trail, and refuses members, viewers and strangers", async () => {
    const owner = await user('enterprise');
    const workspace = await core().workspaces.create(owner, { name: 'Audited', slug: `a-${now}` });
    const owned: AuditOwner = { workspaceId: workspace.id };
    await seed(owned, { kind: 'user', userId: owner }, ['workspace.update']);
    const roles = { admin: await user('free'), member: await user('pro'), viewer: await user('pro') };
    for (const [role, id] of Object.entries(roles)) {
      const { email } = (await core().accounts.findUser(id)) ?? { email: '' };
      await core().workspaceMembers.invite(owner, {
        id: workspace.id,
        email,
        role: role as 'admin' | 'member' | 'viewer',
      });
    }
    const stranger = await user('enterprise');
    const read = (id: string) => status(list(id, { workspaceId: workspace.id }));
    expect(await read(owner)).toBe('ok');
    // The owner's plan pays for the workspace's trail, whatever the admin's own.
    expect(await read(roles.admin)).toBe('ok');
    // Newest first: the invitations after the seeded update, the workspace's creation first of all.
    expect((await list(roles.admin, { workspaceId: workspace.id })).entries.map((e) => e.action)).toEqual([
      'workspace_member.add',
      'workspace_member.add',
      'workspace_member.add',
      'workspace.update',
      'workspace.create',
    ]);
    expect(await read(roles.member)).toBe('FORBIDDEN');
    expect(await read(roles.viewer)).toBe('FORBIDDEN');
    expect(await read(stranger)).toBe('FORBIDDEN');
    expect(await status(list(stranger, { workspaceId: crypto.randomUUID() }))).toBe('NOT_FOUND');
    expect(await status(core().audit.verify(stranger, { workspaceId: workspace.id }))).toBe('FORBIDDEN');
    expect(await status(core().audit.export(roles.member, { workspaceId: workspace.id }))).toBe('FORBIDDEN');
    // A stranger's own trail is theirs alone: nothing of the workspace's shows there.
    expect((await list(stranger)).entries).toEqual([]);

    await core().accounts.setPlan(owner, 'free');
    expect(await read(roles.admin)).toBe('BYOK_REQUIRED');
    // Who may read comes first: a stranger still learns nothing of the workspace's plan.
    expect(await read(stranger)).toBe('FORBIDDEN');
  });

  it('refuses an account whose plan has no audit log with 402 BYOK_REQUIRED naming the plan', async () => {
    const free = await user('free');
    const error = await list(free).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BYOK_REQUIRED', extra: { requiredPlan: 'pro' } });
    expect(await status(core().audit.verify(free, {}))).toBe('BYOK_REQUIRED');
    expect(await status(core().audit.export(free, {}))).toBe('BYOK_REQUIRED');
    await core().accounts.setPlan(free, 'byok_pro');
    expect(await status(list(free))).toBe('ok');
  });

  it('verifies the trail the caller may read', async () => {
    const me = await user('pro');
    await seed({ accountId: me }, { kind: 'user', userId: me }, ['a.one', 'a.two']);
    expect(await core().audit.verify(me, {})).toEqual({
      chain: `account:${me}`,
      entries: 2,
      verified: true,
      firstBroken: null,
      checkpoint: null,
    });
  });

  it('exports 2,500 entries in pages, oldest first, each once, and only what the filters keep', async () => {
    const me = await user('pro');
    const mine: AuditOwner = { accountId: me };
    for (let batch = 0; batch < 25; batch++) {
      const actions = Array.from({ length: 100 }, (_, i) =>
        (batch * 100 + i) % 5 === 0 ? 'key.revoke' : 'x.y',
      );
      await seed(mine, { kind: 'user', userId: me }, actions);
    }
    const entries = await collect(await core().audit.export(me, {}));
    // The whole chain (the account's creation and plan first, the export's own entry last), each seq once.
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries.filter((entry) => ['x.y', 'key.revoke'].includes(entry.action))).toHaveLength(2500);
    expect(entries.at(-1)?.action).toBe('audit.export');
    // Each entry names the hash of the one before: the export reads as one unbroken chain.
    expect(entries.every((entry, i) => i === 0 || entry.prevHash === entries[i - 1]?.hash)).toBe(true);
    const firstRevoke = entries.find((entry) => entry.action === 'key.revoke')?.seq ?? 0;
    const revoked = await collect(await core().audit.export(me, { action: 'key.revoke' }));
    expect(revoked.map((entry) => entry.seq)).toEqual(
      Array.from({ length: 500 }, (_, i) => firstRevoke + i * 5),
    );
  }, 120_000);

  it('exports what was there when it began, not what is appended while it streams', async () => {
    const me = await user('pro');
    const mine: AuditOwner = { accountId: me };
    await seed(mine, { kind: 'user', userId: me }, Array(3).fill('a.b'));
    const entries = await core().audit.export(me, {});
    await seed(mine, { kind: 'user', userId: me }, ['a.later']);
    const actions = (await collect(entries)).map((entry) => entry.action);
    expect(actions.filter((action) => action.startsWith('a.'))).toEqual(['a.b', 'a.b', 'a.b']);
    expect(actions.at(-1)).toBe('audit.export');
  });
});
