import { AppError, notFound } from '../shared/app-error.ts';
import { recordAttachmentDeleted } from './attachment-audit.ts';
import { type AttachmentResources, attachmentQuery, ownDebate } from './attachment-resources.ts';

/**
 * Deletes an attachment of the caller's own debate. Who may read the debate is settled first, outside the
 * transaction: a reader who is not its owner is FORBIDDEN, anyone else NOT_FOUND. The delete then locks the
 * owner's own debate.
 */
export const removeAttachment =
  ({ db, clock, debateAccess }: AttachmentResources) =>
  async (userId: string, debateId: string, attachmentId: string): Promise<void> => {
    const debate = await debateAccess.visible(userId, debateId);
    if (debate.owner.id !== userId) {
      throw new AppError('FORBIDDEN', 'Only the debate owner may delete its attachments');
    }
    await db.em().transactional(async (em) => {
      const locked = await ownDebate(em, userId, debateId, true);
      const row = await attachmentQuery(em)
        .selectFrom('attachments')
        .select('id')
        .where('id', '=', attachmentId)
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (!row) throw notFound('Attachment');
      await attachmentQuery(em).deleteFrom('attachments').where('id', '=', attachmentId).execute();
      await recordAttachmentDeleted(em, clock, locked, attachmentId);
    });
  };
