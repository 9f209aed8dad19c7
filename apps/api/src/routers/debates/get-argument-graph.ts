import { ArgumentGraph, DebateIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getArgumentGraph = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'Missing, deleted, or a debate the caller may not read',
      BYOK_REQUIRED:
        "The caller's plan has no argument graph heatmap (Pro, BYOK Pro and Enterprise have); requiredPlan " +
        'and upgradeUrl say what to choose and where',
    },
    extension: true,
    openapi: {
      method: 'GET',
      path: '/api/debates/{id}/argument-graph',
      summary: "A debate's claims, who rebuts or supports whom, and the readers' votes on each",
      description:
        'For whoever may read the debate (its creator, its workspace, anyone signed in when it is public), on ' +
        "a plan with the argument graph heatmap: the caller's plan decides, whoever owns the debate. Claims " +
        'are the arguments and rebuttals of the current attempt, with agree/disagree votes and their net as ' +
        "each one's weight. Edges: a rebuttal rebuts its target agent's claim of the round before; a claim " +
        'that cites [supports <claimId>] or [rebuts <claimId>] of an earlier round adds that edge.',
    },
  })
  .input(DebateIdInput)
  .output(ArgumentGraph)
  .query(({ ctx, input }) => ctx.services.argumentGraphs.read(ctx.caller.userId, input.id));
