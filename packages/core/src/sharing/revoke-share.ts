import { recordAudit } from '../audit/record-audit.ts';
import { auditOwnerOf } from '../debates/debate-audit.ts';
import { notFound } from '../shared/app-error.ts';
import { type SharingResources, sharingQuery } from './sharing-resources.ts';

/** Deletes the link: its token is dead at once. A debate not shared: NOT_FOUND. */
export const revokeShare =
  ({ db, clock, debateAccess }: SharingResources) =>
  async (userId: string, debateId: string) => {
    const debate = await debateAccess.controlled(userId, debateId);
    await db.em().transactional(async (em) => {
      const deleted = await sharingQuery(em)
        .deleteFrom('share_links')
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw notFound('Share link');
      await recordAudit(em, clock, {
        owner: auditOwnerOf(debate),
        action: 'share_link.revoke',
        target: { type: 'share_link', id: debateId },
      });
    });
    return { debateId, revoked: true as const };
  };
