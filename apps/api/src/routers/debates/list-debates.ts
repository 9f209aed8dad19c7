import { DebateListQuery, DebatePage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listDebates = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/debates',
      tags: ['debates'],
      summary: "The caller's debates, newest first by default; deleted ones are not listed",
      protect: true,
      errorResponses: { 400: 'Invalid query', 401: 'Not authenticated', 429: 'Rate limited' },
    },
  })
  .input(DebateListQuery)
  .output(DebatePage)
  .query(({ ctx, input }) => ctx.core.debateReads.list(ctx.caller.userId, input));
