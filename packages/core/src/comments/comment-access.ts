import type { EntityManager } from '@mikro-orm/core';
import { AppError } from '../shared/app-error.ts';
import { type CommentResources, commentQuery } from './comment-resources.ts';

/** The debate and whether the caller may read and write its comments. */
export type CommentAccess = { ownerId: string; question: string; canRead: boolean; canWrite: boolean };

/**
 * Whoever may read the debate (debate-access.ts) reads its comments, and writes them when signed in; a
 * share link that allows comments lets any signed-in holder read and write them too. In `em` when given.
 */
export async function commentAccess(
  { db, debateAccess }: Pick<CommentResources, 'db' | 'debateAccess'>,
  userId: string | null,
  debateId: string,
  em?: EntityManager,
): Promise<CommentAccess> {
  const { debate, mayRead } = await debateAccess.reader(userId, debateId, em);
  const link = await commentQuery(em ?? db.em())
    .selectFrom('share_links')
    .select('allow_comments')
    .where('debate_id', '=', debateId)
    .executeTakeFirst();
  const sharedForComments = userId !== null && link?.allow_comments === true;
  return {
    ownerId: debate.owner.id,
    question: debate.question,
    canRead: mayRead || sharedForComments,
    canWrite: userId !== null && (mayRead || sharedForComments),
  };
}

/** A debate whose comments the caller may not see: FORBIDDEN, as votes and polls answer. */
export const privateDebate = () => new AppError('FORBIDDEN', 'This debate is private');
