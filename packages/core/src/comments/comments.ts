import type { EntityManager } from '@mikro-orm/core';
import type { Comment, CommentPage } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { DebateAccess } from '../debates/debate-access.ts';
import type { Notifications } from '../notifications/notifications.ts';
import { recordNotification } from '../notifications/record.ts';
import { AppError, notFound } from '../shared/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { storableInstant } from '../shared/storable-instant.ts';
import { clip } from '../shared/text.ts';
import type { SharingTables } from '../sharing/tables.ts';
import type { CommentTables } from './tables.ts';

type Tables = CommentTables & AccountTables & SharingTables;

/** How a comment notification reads; the comment itself is not repeated (it may be long, or private). */
const commentMessage = (actor: string, question: string) =>
  `${actor} commented on your debate "${clip(question, 80)}"`;

/** The debate and whether the caller may read and write its comments. */
type Access = { ownerId: string; question: string; canRead: boolean; canWrite: boolean };

/**
 * Comments on debates (an extension the spec's comment notification implies). Who may comment: the owner
 * and the members of its workspace; any signed-in user on a public debate, or on one whose share link allows comments. Anonymous readers see
 * the comments of public debates. A private debate otherwise is FORBIDDEN (as votes and polls answer).
 */
export function createComments(
  db: Database,
  clock: Clock,
  debateAccess: DebateAccess,
  notifications: Notifications,
  settings: { emailEnabled: boolean },
) {
  const k = (em: EntityManager = db.em()) => query<Tables>(em);

  /**
   * Whoever may read the debate (debate-access.ts) reads its comments, and writes them when signed in; a
   * share link that allows comments lets any signed-in holder read and write them too.
   */
  async function access(userId: string | null, debateId: string, em?: EntityManager): Promise<Access> {
    const { debate, mayRead } = await debateAccess.reader(userId, debateId, em);
    const link = await k(em)
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

  const forbidden = () => new AppError('FORBIDDEN', 'This debate is private');

  return {
    /** Oldest first, `limit` at a time; `cursor` is the createdAt of the previous page's last comment. */
    list: async (
      userId: string | null,
      debateId: string,
      page: { cursor?: string | undefined; limit: number },
    ): Promise<CommentPage> => {
      if (!(await access(userId, debateId)).canRead) throw forbidden();
      let select = k()
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.id', 'c.author_id')
        .select(['c.id', 'c.author_id', 'c.content', 'c.created_at', 'u.name'])
        .where('c.debate_id', '=', debateId)
        .orderBy('c.created_at')
        .orderBy('c.id')
        .limit(page.limit + 1);
      if (page.cursor) select = select.where('c.created_at', '>', storableInstant(page.cursor));
      const rows = await select.execute();
      const comments = rows.slice(0, page.limit).map(
        (row): Comment => ({
          id: row.id,
          debateId,
          authorName: row.name,
          mine: row.author_id === userId,
          content: row.content,
          createdAt: new Date(row.created_at).toISOString(),
        }),
      );
      return {
        comments,
        nextCursor: rows.length > page.limit ? (comments.at(-1)?.createdAt ?? null) : null,
      };
    },

    /** Stores the comment and, when someone else wrote it, the owner's notification, in one transaction. */
    post: async (userId: string, debateId: string, content: string): Promise<Comment> => {
      const { comment, notification, ownerId } = await db.em().transactional(async (em) => {
        const debate = await access(userId, debateId, em);
        if (!debate.canWrite) throw forbidden();
        const at = new Date(clock.now());
        const author = await k(em)
          .selectFrom('users')
          .select('name')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        const row = await k(em)
          .insertInto('comments')
          .values({ debate_id: debateId, author_id: userId, content, created_at: at })
          .returning(['id', 'created_at'])
          .executeTakeFirstOrThrow();
        const notification =
          debate.ownerId === userId
            ? null
            : await recordNotification(
                em,
                {
                  userId: debate.ownerId,
                  type: 'comment',
                  message: commentMessage(author.name, debate.question),
                  debateId,
                  actorId: userId,
                  actorName: author.name,
                },
                { emailEnabled: settings.emailEnabled, at },
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
    },

    /**
     * Its author or the debate's owner may delete a comment, also after the debate stopped being public
     * (an author keeps the right to take back what they wrote); anyone else gets FORBIDDEN.
     */
    delete: async (userId: string, debateId: string, commentId: string): Promise<void> => {
      const debate = await access(userId, debateId);
      const comment = await k()
        .selectFrom('comments')
        .select('author_id')
        .where('id', '=', commentId)
        .where('debate_id', '=', debateId)
        .executeTakeFirst();
      if (!comment) throw debate.canRead ? notFound('Comment') : forbidden();
      if (comment.author_id !== userId && debate.ownerId !== userId) {
        throw new AppError('FORBIDDEN', 'Only its author or the debate owner may delete a comment');
      }
      await k().deleteFrom('comments').where('id', '=', commentId).execute();
    },
  };
}
