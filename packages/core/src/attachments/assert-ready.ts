import type { EntityManager } from '@mikro-orm/core';
import type { DocumentSize } from '../routing/prompt-sizes.ts';
import { readyAttachmentsOf } from './ready-attachments.ts';

/**
 * copyToDebate's refusal without its copies: for an estimate of the create, which writes nothing. Answers
 * the size of each document the debate would carry (name or address, and extracted text), which the
 * estimate sizes the debaters' prompts by.
 */
export async function assertReady(
  em: EntityManager,
  userId: string,
  ids: readonly string[],
): Promise<DocumentSize[]> {
  const rows = await readyAttachmentsOf(em, userId, ids);
  return rows.map((row) => ({
    name: (row.kind === 'url' ? (row.url ?? row.filename) : row.filename).length,
    text: row.text?.length ?? 0,
  }));
}
