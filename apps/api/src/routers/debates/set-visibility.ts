import { DebateVisibility, VisibilityInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { CONTROL_DEBATE_ERRORS } from './error-responses.ts';

/** A debate is private until its owner makes it public (and back). */
export const setVisibility = userProcedure
  .meta({
    errors: CONTROL_DEBATE_ERRORS,
    extension: true,
    openapi: {
      method: 'PATCH',
      path: '/api/debates/{id}/visibility',
      summary: 'Make a debate public or private',
      description:
        'Public debates can be read, forked, voted on, polled and commented on by any signed-in user (votes, ' +
        'polls and comments are readable without signing in); private ones only by their owner. Share links ' +
        'work either way.',
    },
  })
  .input(VisibilityInput)
  .output(DebateVisibility)
  .mutation(({ ctx, input }) =>
    ctx.services.sharing.setVisibility(ctx.caller.userId, input.id, input.isPublic),
  );
