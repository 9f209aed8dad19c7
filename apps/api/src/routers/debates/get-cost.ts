import { DebateCostBreakdown, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

/** Per call (turns, the judge, the classifier) and per model, what a debate's current attempt cost. */
export const getCost = userProcedure
  .meta({
    errors: { NOT_FOUND: 'Missing, deleted, or a private debate of another account' },
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/cost',
      summary: "Tokens and list-price USD of each call of the debate's current attempt, and per model",
      description:
        "Turns as they are stored; the judge's and classifier's calls once the debate is finished. totalUsd " +
        "is the exact sum of the calls' costUsd and, once finished, the debate's cost.estimatedUsd.",
    },
  })
  .input(DebateIdInput)
  .output(DebateCostBreakdown)
  .query(({ ctx, input }) => ctx.services.debateCosts(ctx.caller.userId, input.id));
