import { DebateIdInput, OutcomeRecord } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { NO_OUTCOME } from './error-responses.ts';

export const skipOutcome = userProcedure
  .meta({
    errors: NO_OUTCOME,
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/outcome/skip',
      summary: 'Leave a pending outcome untold: it leaves the pending list and never counts in the score',
      description: 'An outcome already told stays as it is (skip it by recording too_early instead).',
    },
  })
  .input(DebateIdInput)
  .output(OutcomeRecord)
  .mutation(({ ctx, input }) => ctx.services.outcomes.skip(ctx.caller.userId, input.id));
