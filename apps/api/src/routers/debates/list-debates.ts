import { DebateListQuery, DebatePage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listDebates = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates',
      summary: "The caller's debates, newest first by default; deleted ones are not listed",
    },
  })
  .input(DebateListQuery)
  .output(DebatePage)
  .query(({ ctx, input }) => ctx.services.debateReads.list(ctx.caller.userId, input));
