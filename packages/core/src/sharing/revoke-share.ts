import { notFound } from '../shared/app-error.ts';
import { type SharingResources, sharingQuery } from './sharing-resources.ts';

/** Deletes the link: its token is dead at once. A debate not shared: NOT_FOUND. */
export const revokeShare =
  ({ db, debateAccess }: SharingResources) =>
  async (userId: string, debateId: string) => {
    await debateAccess.controlled(userId, debateId);
    const deleted = await sharingQuery(db.em())
      .deleteFrom('share_links')
      .where('debate_id', '=', debateId)
      .executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw notFound('Share link');
    return { debateId, revoked: true as const };
  };
