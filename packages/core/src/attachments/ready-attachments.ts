import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../shared/app-error.ts';
import { attachmentQuery } from './attachment-resources.ts';

/**
 * The caller's own ready attachments among `ids`, share-locked until the transaction ends (a source deleted
 * meanwhile cannot leave a copy without bytes). Anything else named (another user's, pending, failed,
 * missing) is a 400 naming attachmentIds, the same for each, so a caller learns nothing of others' ids.
 */
export async function readyAttachmentsOf(em: EntityManager, userId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await attachmentQuery(em)
    .selectFrom('attachments')
    .selectAll()
    .where('id', 'in', unique)
    .where('owner_id', '=', userId)
    .where('status', '=', 'ready')
    .orderBy('created_at', 'asc')
    .forShare()
    .execute();
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((row) => row.id));
    const missing = unique.filter((id) => !found.has(id));
    throw new AppError('VALIDATION_ERROR', 'attachmentIds: not your ready attachments', {
      details: missing.map((id) => ({
        path: `attachmentIds.${ids.indexOf(id)}`,
        message: 'no ready attachment of yours has this id',
        code: 'not_found',
      })),
    });
  }
  return rows;
}
