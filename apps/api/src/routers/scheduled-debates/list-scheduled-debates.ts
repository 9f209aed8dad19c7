import { ScheduledDebateListQuery, ScheduledDebatePage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listScheduledDebates = userProcedure
  .meta({
    errors: { VALIDATION_ERROR: 'page below 1, limit outside 1–100, or active other than true or false' },
    openapi: {
      method: 'GET',
      path: '/api/scheduled-debates',
      summary: "The caller's scheduled debates, newest first",
      description: 'Paged by page and limit; active=true or active=false keeps only active or paused ones.',
    },
  })
  .input(ScheduledDebateListQuery)
  .output(ScheduledDebatePage)
  .query(({ ctx, input }) => ctx.services.scheduledDebates.list(ctx.caller.userId, input));
