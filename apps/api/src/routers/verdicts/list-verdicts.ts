import { DebatePage, VerdictListQuery } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';

export const listVerdicts = keyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/verdicts',
      tags: ['v1'],
      summary: "The key owner's debates, paginated; search looks within questions",
      protect: true,
      errorResponses: { 400: 'Invalid query', 401: 'Missing or invalid key', 429: 'Rate limited' },
    },
  })
  .input(VerdictListQuery)
  .output(DebatePage)
  .query(({ ctx, input }) => ctx.core.debateReads.list(ctx.caller.userId, input));
