import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actingAs,
  auditEntriesOf,
  createTestCore,
  insertStoredDebate,
  insertTestWorkspace,
  placeDebateIn,
  type TestCore,
  uniqueEmail,
  userEntry,
} from '../testing/index.ts';

describe.each(['postgres', 'pglite'] as const)(
  'the audit trail of deleting and moving debates (%s)',
  (database) => {
    let test: TestCore;
    beforeAll(async () => {
      test = await createTestCore({}, { database });
    });
    afterAll(() => test?.cleanup());

    const newUser = async (plan = 'free') => {
      const { id } = await test.core.accounts.createUser({ email: uniqueEmail('debate-audit'), name: 'A' });
      await test.core.db.execute('update users set plan = ? where id = ?', [plan, id]);
      return id;
    };
    const newDebate = (ownerId: string) => insertStoredDebate(test.core, { ownerId, question: 'Kept?' });
    const target = (id: string) => ({ type: 'debate', id });

    it('records a soft delete in its owner’s trail and a purge in its workspace’s, once each', async () => {
      const userId = await newUser();
      const personal = await newDebate(userId);
      await actingAs(userId, () => test.core.debates.softDelete(userId, personal));
      expect(await auditEntriesOf(test.core, { accountId: userId })).toMatchObject([
        userEntry(userId, 'debate.delete', target(personal)),
      ]);

      const workspaceId = await insertTestWorkspace(test.core, userId);
      const shared = await newDebate(userId);
      await placeDebateIn(test.core, shared, workspaceId);
      await actingAs(userId, () => test.core.debates.removePermanently(userId, shared));
      // Deleting it again answers as a success, and records nothing more.
      await actingAs(userId, () => test.core.debates.removePermanently(userId, shared));
      expect(await auditEntriesOf(test.core, { workspaceId })).toMatchObject([
        userEntry(userId, 'debate.purge', target(shared)),
      ]);
      expect(await auditEntriesOf(test.core, { accountId: userId })).toHaveLength(1);
    });

    it('records one soft delete when two arrive at once', async () => {
      const userId = await newUser();
      const debateId = await newDebate(userId);
      const results = await Promise.allSettled(
        [1, 2].map(() => actingAs(userId, () => test.core.debates.softDelete(userId, debateId))),
      );
      expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
      expect(await auditEntriesOf(test.core, { accountId: userId })).toMatchObject([
        userEntry(userId, 'debate.delete', target(debateId)),
      ]);
    });

    it('records a move in the trail of the workspace it enters or leaves, with both workspace ids', async () => {
      const userId = await newUser('byok_pro');
      const workspaceId = await insertTestWorkspace(test.core, userId);
      const debateId = await newDebate(userId);
      await actingAs(userId, () => test.core.debates.moveToWorkspace(userId, debateId, workspaceId));
      await actingAs(userId, () => test.core.debates.moveToWorkspace(userId, debateId, null));
      expect(await auditEntriesOf(test.core, { workspaceId })).toMatchObject([
        userEntry(userId, 'debate.move', target(debateId), {
          workspaceId: { before: null, after: workspaceId },
        }),
        userEntry(userId, 'debate.move', target(debateId), {
          workspaceId: { before: workspaceId, after: null },
        }),
      ]);
      expect(await auditEntriesOf(test.core, { accountId: userId })).toEqual([]);
    });

    it('records nothing for a refused delete, purge or move', async () => {
      const userId = await newUser();
      const stranger = await newUser('byok_pro');
      const debateId = await newDebate(userId);
      const strangersWorkspace = await insertTestWorkspace(test.core, stranger);
      await expect(test.core.debates.softDelete(stranger, debateId)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(test.core.debates.removePermanently(stranger, debateId)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      // Not a member of that workspace.
      await expect(
        test.core.debates.moveToWorkspace(userId, debateId, strangersWorkspace),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      // Its own workspace, but its plan has no workspaces.
      const ownWorkspace = await insertTestWorkspace(test.core, userId);
      await expect(test.core.debates.moveToWorkspace(userId, debateId, ownWorkspace)).rejects.toMatchObject({
        code: 'BYOK_REQUIRED',
      });
      expect(await auditEntriesOf(test.core, { workspaceId: ownWorkspace })).toEqual([]);
      expect(await auditEntriesOf(test.core, { accountId: userId })).toEqual([]);
      expect(await auditEntriesOf(test.core, { workspaceId: strangersWorkspace })).toEqual([]);
    });
  },
);
