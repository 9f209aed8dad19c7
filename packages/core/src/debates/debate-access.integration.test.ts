import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCore, insertStoredDebate, type TestCore } from '../testing/index.ts';
import { mayRead } from './debate-access.ts';

describe('debate access', () => {
  let test: TestCore;
  const newUser = async () => {
    const id = randomUUID();
    await test.core.db.execute(`insert into users (id, email, name) values (?, ?, 'T')`, [
      id,
      `${id}@example.com`,
    ]);
    return id;
  };
  const newWorkspace = async (ownerId: string, members: { userId: string; role: string }[]) => {
    const id = randomUUID();
    await test.core.db.execute(`insert into workspaces (id, owner_id, name, slug) values (?, ?, 'W', ?)`, [
      id,
      ownerId,
      id.slice(0, 32),
    ]);
    for (const member of [{ userId: ownerId, role: 'owner' }, ...members]) {
      await test.core.db.execute(
        'insert into workspace_members (workspace_id, user_id, role) values (?, ?, ?)',
        [id, member.userId, member.role],
      );
    }
    return id;
  };
  const moveInto = (debateId: string, workspaceId: string) =>
    test.core.db.execute('update debates set workspace_id = ? where id = ?', [workspaceId, debateId]);
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code ?? 'thrown',
    );

  let creator: string;
  let member: string;
  let stranger: string;
  let privateDebate: string;
  let publicDebate: string;
  let workspaceDebate: string;

  beforeAll(async () => {
    test = await createTestCore();
    [creator, member, stranger] = [await newUser(), await newUser(), await newUser()];
    const owner = await newUser();
    const workspace = await newWorkspace(owner, [
      { userId: creator, role: 'member' },
      { userId: member, role: 'member' },
    ]);
    privateDebate = await insertStoredDebate(test.core, { ownerId: creator, question: 'Private?' });
    publicDebate = await insertStoredDebate(test.core, {
      ownerId: creator,
      question: 'Public?',
      isPublic: true,
    });
    workspaceDebate = await insertStoredDebate(test.core, { ownerId: creator, question: 'Team?' });
    await moveInto(workspaceDebate, workspace);
  }, 60_000);
  afterAll(async () => {
    await test?.cleanup();
  });

  it('lets the creator, a member of its workspace, and anyone on a public debate read it', () => {
    const nobody = { isCreator: false, membership: null };
    expect(mayRead({ isPublic: false }, nobody)).toBe(false);
    expect(mayRead({ isPublic: true }, nobody)).toBe(true);
    expect(mayRead({ isPublic: false }, { ...nobody, isCreator: true })).toBe(true);
  });

  it('answers NOT_FOUND to a read of a private debate, FORBIDDEN to a reaction, and lets its readers in', async () => {
    const access = test.core.debateAccess;
    expect(await outcome(access.visible(stranger, privateDebate))).toBe('NOT_FOUND');
    expect(await outcome(access.audience(stranger, privateDebate))).toBe('FORBIDDEN');
    expect(await outcome(access.audience(null, privateDebate))).toBe('FORBIDDEN');
    expect(await outcome(access.visible(creator, privateDebate))).toBe('ok');
    expect(await outcome(access.audience(null, publicDebate))).toBe('ok');
    expect(await outcome(access.visible(stranger, publicDebate))).toBe('ok');
  });

  it('lets a member of its workspace read a debate, but not run one they did not create', async () => {
    const access = test.core.debateAccess;
    const read = await access.reader(member, workspaceDebate);
    expect(read).toMatchObject({ mayRead: true, standing: { isCreator: false } });
    expect(read.standing.membership?.role).toBe('member');
    expect(await outcome(access.visible(stranger, workspaceDebate))).toBe('NOT_FOUND');
    expect(await outcome(access.controlled(member, workspaceDebate))).toBe('FORBIDDEN');
    expect(await outcome(access.controlled(creator, workspaceDebate))).toBe('ok');
    expect(await outcome(access.controlled(stranger, publicDebate))).toBe('NOT_FOUND');
  });

  it('tells whether the reaction comes from the owner, and hides a deleted debate from everyone', async () => {
    const access = test.core.debateAccess;
    expect((await access.audience(creator, publicDebate)).isOwner).toBe(true);
    expect((await access.audience(stranger, publicDebate)).isOwner).toBe(false);
    const deleted = await insertStoredDebate(test.core, {
      ownerId: creator,
      question: 'Gone?',
      deleted: true,
    });
    expect(await outcome(access.reader(creator, deleted))).toBe('NOT_FOUND');
    expect(await outcome(access.owned(creator, deleted))).toBe('NOT_FOUND');
  });
});
