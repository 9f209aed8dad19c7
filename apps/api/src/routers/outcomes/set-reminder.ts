import { DebateIdInput, OutcomeRecord, OutcomeReminderInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { NO_OUTCOME } from './error-responses.ts';

export const setOutcomeReminder = userProcedure
  .meta({
    errors: NO_OUTCOME,
    openapi: {
      method: 'PATCH',
      path: '/api/debates/{id}/outcome/reminder',
      summary: 'When to be reminded of a pending outcome: due reminders lead the pending list',
    },
  })
  .input(DebateIdInput.extend(OutcomeReminderInput.shape))
  .output(OutcomeRecord)
  .mutation(({ ctx, input }) =>
    ctx.services.outcomes.setReminder(ctx.caller.userId, input.id, { reminderAt: input.reminderAt }),
  );
