import { DebatePage, VerdictListQuery } from '@verdict/contracts';
import { keyProcedure } from '../../trpc/init.ts';

export const listVerdicts = keyProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/v1/verdicts',
      summary: "The key owner's debates, paginated; search looks within questions",
    },
  })
  .input(VerdictListQuery)
  .output(DebatePage)
  .query(({ ctx, input }) => ctx.services.debates.list(ctx.caller.userId, input));
