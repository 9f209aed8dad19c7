import { ScheduledDebate, UpdateScheduledDebateInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { OWN_SCHEDULE_ERRORS } from './error-responses.ts';

export const updateScheduledDebate = userProcedure
  .meta({
    errors: {
      ...OWN_SCHEDULE_ERRORS,
      VALIDATION_ERROR:
        'A field is invalid; the schedule would be weekly without dayOfWeek or monthly without dayOfMonth; ' +
        'or active is true while runCount has reached maxRuns, or resumes a schedule of a BYOK plan (its ' +
        'debates need the provider keys of each request, which are never stored)',
    },
    openapi: {
      method: 'PATCH',
      path: '/api/scheduled-debates/{id}',
      summary: 'Change, pause or resume a scheduled debate',
      description:
        'Only the fields sent change. nextRunAt is recomputed from now when frequency, dayOfWeek, dayOfMonth, ' +
        'timeOfDay or timezone change, and when active turns true. Changing to weekly needs a dayOfWeek and ' +
        'to monthly a dayOfMonth (sent or already stored). maxRuns null removes the limit; a maxRuns at or ' +
        'below runCount pauses the schedule.',
    },
  })
  .input(UpdateScheduledDebateInput)
  .output(ScheduledDebate)
  .mutation(({ ctx, input: { id, ...changes } }) =>
    ctx.services.scheduledDebates.update(ctx.caller.userId, id, changes),
  );
