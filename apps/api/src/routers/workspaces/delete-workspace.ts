import { WorkspaceIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_WORKSPACE_ERRORS } from './error-responses.ts';

export const deleteWorkspace = userProcedure
  .meta({
    errors: { ...ONE_WORKSPACE_ERRORS, FORBIDDEN: 'Not a member, or not the owner' },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/workspaces/{id}',
      summary: 'Delete a workspace with its members, settings and debates (the owner only)',
      description:
        'Permanent, in one transaction: the workspace’s debates are deleted with their transcripts, votes, ' +
        'polls, comments and outcomes (running ones are stopped first), whoever created them.',
    },
  })
  .input(WorkspaceIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.debates.removeWithWorkspace(ctx.caller.userId, input.id));
