import { WorkspaceIdInput, WorkspaceMemberList } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_WORKSPACE_ERRORS } from './error-responses.ts';

export const listMembers = userProcedure
  .meta({
    errors: ONE_WORKSPACE_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/workspaces/{id}/members',
      summary: 'The people in a workspace: the owner first, then by when each joined',
    },
  })
  .input(WorkspaceIdInput)
  .output(WorkspaceMemberList)
  .query(({ ctx, input }) => ctx.services.workspaceMembers.list(ctx.caller.userId, input.id));
