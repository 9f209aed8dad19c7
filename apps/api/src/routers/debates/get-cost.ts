import { DebateCostBreakdown, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

/** Per call (turns, the judge, the classifier) and per model, what a debate's current attempt cost. */
export const getCost = userProcedure
  .meta({
    errors: {
      NOT_FOUND:
        "Missing, deleted, a private debate of another account, or a public one whose owner's share link " +
        'does not show the cost (showCost)',
    },
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/cost',
      summary: "Tokens and list-price USD of each call of the debate's current attempt, and per model",
      description:
        "Turns as they are stored; the judge's and classifier's calls once the debate is finished. totalUsd " +
        "is the exact sum of the calls' costUsd and, once finished, the debate's cost.estimatedUsd. For the " +
        "debate's creator and the members of its workspace; for another reader of a public debate only when " +
        'its owner shows the cost on its share link (showCost), as the share view does.',
    },
  })
  .input(DebateIdInput)
  .output(DebateCostBreakdown)
  .query(({ ctx, input }) => ctx.services.debates.costBreakdown(ctx.caller.userId, input.id));
