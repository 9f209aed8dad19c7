import { AppError, notFound } from '../shared/app-error.ts';
import { commentAccess, privateDebate } from './comment-access.ts';
import { type CommentResources, commentQuery } from './comment-resources.ts';

/**
 * Its author or the debate's owner may delete a comment, also after the debate stopped being public
 * (an author keeps the right to take back what they wrote); anyone else gets FORBIDDEN.
 */
export const deleteComment =
  (resources: CommentResources) =>
  async (userId: string, debateId: string, commentId: string): Promise<void> => {
    const { db } = resources;
    const debate = await commentAccess(resources, userId, debateId);
    const comment = await commentQuery(db.em())
      .selectFrom('comments')
      .select('author_id')
      .where('id', '=', commentId)
      .where('debate_id', '=', debateId)
      .executeTakeFirst();
    if (!comment) throw debate.canRead ? notFound('Comment') : privateDebate();
    if (comment.author_id !== userId && debate.ownerId !== userId) {
      throw new AppError('FORBIDDEN', 'Only its author or the debate owner may delete a comment');
    }
    await commentQuery(db.em()).deleteFrom('comments').where('id', '=', commentId).execute();
  };
