import { CreateScheduledDebateInput, SCHEDULES_PER_USER_MAX, ScheduledDebate } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createScheduledDebate = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR:
        'A field is invalid, weekly lacks dayOfWeek, monthly lacks dayOfMonth, the timezone is not an IANA ' +
        `name, the caller already has ${SCHEDULES_PER_USER_MAX} scheduled debates, or the caller is on a BYOK ` +
        'plan (its debates need the provider keys of each request, which are never stored)',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/scheduled-debates',
      summary: 'Schedule a recurring debate',
      description:
        'Created active; its first nextRunAt is the first run after now, in UTC: daily at timeOfDay, weekly on ' +
        'dayOfWeek (0 = Sunday), monthly on dayOfMonth — a month without that day runs on its last day. ' +
        'Each run creates a debate as a manual one would, billed the same way.',
    },
  })
  .input(CreateScheduledDebateInput)
  .output(ScheduledDebate)
  .mutation(({ ctx, input }) => ctx.services.scheduledDebates.create(ctx.caller.userId, input));
