import type { Comment, CommentPage } from '@verdict/contracts';
import { storableInstant } from '../shared/storable-instant.ts';
import { commentAccess, privateDebate } from './comment-access.ts';
import { type CommentResources, commentQuery } from './comment-resources.ts';

/** Oldest first, `limit` at a time; `cursor` is the createdAt of the previous page's last comment. */
export const listComments =
  (resources: CommentResources) =>
  async (
    userId: string | null,
    debateId: string,
    page: { cursor?: string | undefined; limit: number },
  ): Promise<CommentPage> => {
    if (!(await commentAccess(resources, userId, debateId)).canRead) throw privateDebate();
    let select = commentQuery(resources.db.em())
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
  };
