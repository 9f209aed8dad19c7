import { UpdateWorkspaceInput, Workspace } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_WORKSPACE_ERRORS } from './error-responses.ts';

export const updateWorkspace = userProcedure
  .meta({
    errors: {
      ...ONE_WORKSPACE_ERRORS,
      FORBIDDEN: 'Not a member, or a member or viewer (admins and the owner only)',
    },
    openapi: {
      method: 'PATCH',
      path: '/api/workspaces/{id}',
      summary: 'Change a workspace’s name, description or settings (admins and the owner)',
      description: 'Only the fields given change; within settings, only the settings given.',
    },
  })
  .input(UpdateWorkspaceInput)
  .output(Workspace)
  .mutation(({ ctx, input }) => ctx.services.workspaces.update(ctx.caller.userId, input));
