import { Workspace, WorkspaceIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_WORKSPACE_ERRORS } from './error-responses.ts';

export const getWorkspace = userProcedure
  .meta({
    errors: ONE_WORKSPACE_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/workspaces/{id}',
      summary: 'A workspace, for any of its members',
    },
  })
  .input(WorkspaceIdInput)
  .output(Workspace)
  .query(({ ctx, input }) => ctx.services.workspaces.get(ctx.caller.userId, input.id));
