import { Comment, CreateCommentInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { COMMENT_ERRORS } from './error-responses.ts';

export const createComment = userProcedure
  .meta({
    errors: COMMENT_ERRORS,
    extension: true,
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/comments',
      summary: 'Comment on a debate',
      description:
        "Allowed on your own debates, public debates, and debates shared with allowComments. The debate's " +
        'owner is notified (type comment) when someone else comments.',
    },
  })
  .input(CreateCommentInput)
  .output(Comment)
  .mutation(({ ctx, input }) => ctx.services.comments.post(ctx.caller.userId, input.id, input.content));
