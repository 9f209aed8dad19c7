import { CommentIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const deleteComment = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'The debate is missing or deleted, or it has no such comment',
      FORBIDDEN: "Neither the comment's author nor the debate's owner",
    },
    extension: true,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/debates/{id}/comments/{commentId}',
      summary: 'Delete a comment (its author or the debate owner)',
    },
  })
  .input(CommentIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.comments.delete(ctx.caller.userId, input.id, input.commentId));
