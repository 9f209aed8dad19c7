import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const clearHistory = userProcedure
  .meta({
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/search/history',
      summary: 'Clear your search history',
      description: 'Suggestions then come from your debate questions only, until you search again.',
    },
  })
  .input(z.void())
  .output(z.void())
  .mutation(({ ctx }) => ctx.services.search.clearHistory(ctx.caller.userId));
