import { type AttachmentResources, assertPlan, ownDebate } from './attachment-resources.ts';

/**
 * What an upload must pass before its body is read: the caller's own debate (404) and BYOK Pro (402).
 * `upload` checks both again in its transaction.
 */
export const assertCanAttach =
  ({ db, plans }: AttachmentResources) =>
  async (userId: string, debateId: string): Promise<void> => {
    const em = db.em();
    await ownDebate(em, userId, debateId, false);
    await assertPlan(plans, em, userId);
  };
