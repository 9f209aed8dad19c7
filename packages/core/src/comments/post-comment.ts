import type { EntityManager } from '@mikro-orm/core';
import type { Comment } from '@verdict/contracts';
import { recordNotification } from '../notifications/record.ts';
import { clip } from '../shared/text.ts';
import { type CommentAccess, commentAccess, privateDebate } from './comment-access.ts';
import { type CommentResources, commentQuery } from './comment-resources.ts';

/** Stores the comment and, when someone else wrote it, the owner's notification, in one transaction. */
export const postComment =
  (resources: CommentResources) =>
  async (userId: string, debateId: string, content: string): Promise<Comment> => {
    const { db, clock, notifications, email } = resources;
    const { comment, notification, ownerId } = await db.em().transactional(async (em) => {
      const debate = await commentAccess(resources, userId, debateId, em);
      if (!debate.canWrite) throw privateDebate();
      const at = new Date(clock.now());
      const author = await commentQuery(em)
        .selectFrom('users')
        .select('name')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const row = await commentQuery(em)
        .insertInto('comments')
        .values({ debate_id: debateId, author_id: userId, content, created_at: at })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      const notification =
        debate.ownerId === userId
          ? null
          : await notifyOwner(
              em,
              { ...debate, id: debateId },
              { id: userId, name: author.name },
              { emailEnabled: email.emailEnabled, at },
            );
      const comment: Comment = {
        id: row.id,
        debateId,
        authorName: author.name,
        mine: true,
        content,
        createdAt: new Date(row.created_at).toISOString(),
      };
      return { comment, notification, ownerId: debate.ownerId };
    });
    if (notification) notifications.publish(ownerId, notification);
    return comment;
  };

/** How a comment notification reads; the comment itself is not repeated (it may be long, or private). */
const commentMessage = (actor: string, question: string) =>
  `${actor} commented on your debate "${clip(question, 80)}"`;

/** The debate owner's notification of someone else's comment, recorded in the comment's transaction. */
const notifyOwner = (
  em: EntityManager,
  debate: CommentAccess & { id: string },
  author: { id: string; name: string },
  recorded: { emailEnabled: boolean; at: Date },
) =>
  recordNotification(
    em,
    {
      userId: debate.ownerId,
      type: 'comment',
      message: commentMessage(author.name, debate.question),
      debateId: debate.id,
      actorId: author.id,
      actorName: author.name,
    },
    recorded,
  );
