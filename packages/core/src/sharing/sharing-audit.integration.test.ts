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
  'the audit trail of share links and visibility (%s)',
  (database) => {
    let test: TestCore;
    beforeAll(async () => {
      test = await createTestCore({}, { database });
    });
    afterAll(() => test?.cleanup());

    const newUser = async () =>
      (await test.core.accounts.createUser({ email: uniqueEmail('share-audit'), name: 'Audited' })).id;
    const newDebate = (ownerId: string) => insertStoredDebate(test.core, { ownerId, question: 'Shared?' });

    it('records a link’s creation, rotation, settings and revocation once each, never its token', async () => {
      const userId = await newUser();
      const debateId = await newDebate(userId);
      const target = { type: 'share_link', id: debateId };
      const first = await actingAs(userId, () => test.core.sharing.share(userId, debateId));
      const rotated = await actingAs(userId, () => test.core.sharing.share(userId, debateId));
      await actingAs(userId, () => test.core.sharing.updateSettings(userId, debateId, { allowFork: true }));
      await actingAs(userId, () => test.core.sharing.revoke(userId, debateId));
      const rows = await auditEntriesOf(test.core, { accountId: userId });
      expect(rows).toMatchObject([
        userEntry(userId, 'share_link.create', target, {
          allowComments: { before: null, after: false },
          allowFork: { before: null, after: false },
          showCost: { before: null, after: false },
          requireSignIn: { before: null, after: false },
          token: { changed: true },
        }),
        userEntry(userId, 'share_link.create', target, { token: { changed: true } }),
        userEntry(userId, 'share_link.update', target, { allowFork: { before: false, after: true } }),
        userEntry(userId, 'share_link.revoke', target),
      ]);
      expect(JSON.stringify(rows)).not.toContain(first.token);
      expect(JSON.stringify(rows)).not.toContain(rotated.token);
    });

    it('records a visibility change as the debate’s update, in its workspace’s trail when it has one', async () => {
      const userId = await newUser();
      const workspaceId = await insertTestWorkspace(test.core, userId);
      const debateId = await newDebate(userId);
      await placeDebateIn(test.core, debateId, workspaceId);
      await actingAs(userId, () => test.core.sharing.setVisibility(userId, debateId, true));
      // Already public: nothing changes, nothing is recorded.
      await actingAs(userId, () => test.core.sharing.setVisibility(userId, debateId, true));
      await actingAs(userId, () => test.core.sharing.setVisibility(userId, debateId, false));
      const target = { type: 'debate', id: debateId };
      expect(await auditEntriesOf(test.core, { workspaceId })).toMatchObject([
        userEntry(userId, 'debate.update', target, { visibility: { before: 'private', after: 'public' } }),
        userEntry(userId, 'debate.update', target, { visibility: { before: 'public', after: 'private' } }),
      ]);
      expect(await auditEntriesOf(test.core, { accountId: userId })).toEqual([]);
    });

    it('records nothing for a refused change', async () => {
      const userId = await newUser();
      const stranger = await newUser();
      const debateId = await newDebate(userId);
      await expect(test.core.sharing.share(stranger, debateId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(test.core.sharing.setVisibility(stranger, debateId, true)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      // Not shared: nothing to revoke or change.
      await expect(test.core.sharing.revoke(userId, debateId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        test.core.sharing.updateSettings(userId, debateId, { showCost: true }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await auditEntriesOf(test.core, { accountId: userId })).toEqual([]);
      expect(await auditEntriesOf(test.core, { accountId: stranger })).toEqual([]);
    });
  },
);
