import { ScheduledDebate, ScheduledDebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_SCHEDULE_ERRORS } from './error-responses.ts';

export const getScheduledDebate = userProcedure
  .meta({
    errors: OWN_SCHEDULE_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/scheduled-debates/{id}',
      summary: 'One scheduled debate',
      description: 'Its owner only. lastFailure says why the latest run that created no debate did not.',
    },
  })
  .input(ScheduledDebateIdInput)
  .output(ScheduledDebate)
  .query(({ ctx, input }) => ctx.services.scheduledDebates.get(ctx.caller.userId, input.id));
