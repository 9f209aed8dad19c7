import { ScheduledDebateIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_SCHEDULE_ERRORS } from './error-responses.ts';

export const deleteScheduledDebate = userProcedure
  .meta({
    errors: OWN_SCHEDULE_ERRORS,
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/scheduled-debates/{id}',
      summary: 'Delete a scheduled debate; its past debates are kept',
      description: 'No further runs. The debates it already created stay as they are.',
    },
  })
  .input(ScheduledDebateIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.scheduledDebates.remove(ctx.caller.userId, input.id));
