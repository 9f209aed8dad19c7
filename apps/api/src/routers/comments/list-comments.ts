import { CommentListQuery, CommentPage } from '@verdict/contracts';
import { optionalUserProcedure } from '../../trpc/init.ts';
import { COMMENT_ERRORS } from './error-responses.ts';

export const listComments = optionalUserProcedure
  .meta({
    errors: COMMENT_ERRORS,
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/comments',
      summary: "A debate's comments, oldest first",
      description:
        'Readable without signing in on public debates; signed in, also on debates you own and on debates ' +
        'shared with allowComments. Content is plain text: render it as text, never as HTML.',
    },
  })
  .input(CommentListQuery)
  .output(CommentPage)
  .query(({ ctx, input }) =>
    ctx.services.comments.list(ctx.caller?.userId ?? null, input.id, {
      cursor: input.cursor,
      limit: input.limit,
    }),
  );
