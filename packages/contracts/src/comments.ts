import { z } from 'zod';
import { UuidInput } from './ids.ts';
import { visibleText } from './text.ts';

export const COMMENT_MAX = 2000;

/** POST /api/debates/:id/comments (an extension the spec's comment notification implies). */
export const CreateCommentInput = z.strictObject({
  id: UuidInput,
  content: visibleText(1, COMMENT_MAX).meta({
    description: 'Plain text, 1–2000 characters; never rendered as HTML',
  }),
});

export const CommentIdInput = z.object({ id: UuidInput, commentId: UuidInput });

export const CommentListQuery = z.object({
  id: UuidInput,
  cursor: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'createdAt of the last comment of the previous page' }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const Comment = z
  .object({
    id: z.uuid(),
    debateId: z.uuid(),
    authorName: z.string(),
    /** Whether the caller wrote it (author ids are not shown to other readers). */
    mine: z.boolean(),
    content: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

export const CommentPage = z
  .object({
    comments: z.array(Comment).meta({ description: 'Oldest first' }),
    nextCursor: z.iso.datetime().nullable(),
  })
  .meta({ id: 'CommentPage' });
export type CommentPage = z.infer<typeof CommentPage>;
