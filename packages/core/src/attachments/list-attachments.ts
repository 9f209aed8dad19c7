import type { AttachmentList } from '@verdict/contracts';
import { type AttachmentResources, ownDebate, selectAttachments } from './attachment-resources.ts';
import { toAttachment } from './attachment-views.ts';

/** The attachments of the caller's own debate, oldest first. */
export const listAttachments =
  ({ db }: AttachmentResources) =>
  async (userId: string, debateId: string): Promise<AttachmentList> => {
    const em = db.em();
    await ownDebate(em, userId, debateId, false);
    const rows = await selectAttachments(em)
      .where('debate_id', '=', debateId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return { attachments: rows.map((row) => toAttachment(row)) };
  };
