import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { type AttachmentResources, attachmentQuery } from './attachment-resources.ts';
import { readyAttachmentsOf } from './ready-attachments.ts';

/**
 * Copies the caller's own ready attachments onto a debate being created (attachmentIds of POST
 * /api/debates), in its transaction: the originals stay where they were. Anything else named (another
 * user's, pending, failed, missing) refuses the whole creation with 400 naming attachmentIds.
 */
export const copyToDebate =
  ({ clock, blobs }: Pick<AttachmentResources, 'clock' | 'blobs'>) =>
  async (em: EntityManager, userId: string, ids: readonly string[], debateId: string): Promise<void> => {
    const rows = await readyAttachmentsOf(em, userId, ids);
    for (const row of rows) {
      const id = randomUUID();
      await attachmentQuery(em)
        .insertInto('attachments')
        .values({ ...row, id, debate_id: debateId, created_at: new Date(clock.now()) })
        .execute();
      if (row.kind === 'file') await blobs.copy(em, row.id, id);
    }
  };
