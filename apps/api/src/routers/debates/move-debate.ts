import { DebateWorkspace, MoveDebateInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const moveDebate = userProcedure
  .meta({
    errors: {
      NOT_FOUND: 'Missing, deleted, or not readable by the caller',
      FORBIDDEN:
        'The caller did not create the debate, or may not write to the target workspace (not a member, or a viewer)',
      BYOK_REQUIRED: 'The target workspace’s owner is no longer on a plan with workspaces',
    },
    openapi: {
      method: 'PATCH',
      path: '/api/debates/{id}/workspace',
      summary: 'Move a debate into a workspace, or back to the personal account (null)',
      description:
        'Its creator only, into a workspace where they are a member, admin or owner. Moving changes who ' +
        'may read and control the debate, not what it was charged or to whom.',
    },
  })
  .input(MoveDebateInput)
  .output(DebateWorkspace)
  .mutation(({ ctx, input }) =>
    ctx.services.debates.moveToWorkspace(ctx.caller.userId, input.id, input.workspaceId),
  );
