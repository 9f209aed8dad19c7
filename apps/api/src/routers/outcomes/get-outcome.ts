import { DebateIdInput, OutcomeRecord } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { NO_OUTCOME } from './error-responses.ts';

export const getOutcome = userProcedure
  .meta({
    errors: NO_OUTCOME,
    openapi: { method: 'GET', path: '/api/debates/{id}/outcome', summary: "A debate's outcome record" },
  })
  .input(DebateIdInput)
  .output(OutcomeRecord)
  .query(({ ctx, input }) => ctx.services.outcomes.get(ctx.caller.userId, input.id));
