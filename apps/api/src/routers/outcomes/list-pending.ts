import { PendingOutcomes } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listPendingOutcomes = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/outcomes/pending',
      summary: 'Completed debates awaiting an outcome: due reminders first, then the oldest',
      description: 'Outcomes already told, skipped, or too_early are not listed.',
    },
  })
  .input(z.void())
  .output(PendingOutcomes)
  .query(({ ctx }) => ctx.services.outcomes.pending(ctx.caller.userId));
