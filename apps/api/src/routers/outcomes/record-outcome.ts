import { DebateIdInput, OutcomeRecord, RecordOutcomeInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { NO_OUTCOME } from './error-responses.ts';

export const recordOutcome = userProcedure
  .meta({
    errors: NO_OUTCOME,
    openapi: {
      method: 'POST',
      path: '/api/debates/{id}/outcome',
      summary: 'Say what became of the decision (again, to correct it)',
      description:
        'The score is recalculated asynchronously: it shows at GET /api/scores/me within seconds. The first ' +
        'status given raises the webhook event outcome.recorded, later ones outcome.updated.',
    },
  })
  .input(DebateIdInput.extend(RecordOutcomeInput.shape))
  .output(OutcomeRecord)
  .mutation(({ ctx, input: { id, ...outcome } }) =>
    ctx.services.outcomes.record(ctx.caller.userId, id, outcome),
  );
