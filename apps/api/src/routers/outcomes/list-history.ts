import { OutcomeHistory, OutcomeHistoryQuery } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listOutcomeHistory = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/outcomes/history',
      summary: 'Resolved outcomes (correct, partially_correct, wrong), most recently resolved first',
    },
  })
  .input(OutcomeHistoryQuery)
  .output(OutcomeHistory)
  .query(({ ctx, input }) => ctx.services.outcomes.history(ctx.caller.userId, input));
