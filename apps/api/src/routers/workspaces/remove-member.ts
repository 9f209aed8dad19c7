import { WorkspaceMemberIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const removeMember = userProcedure
  .meta({
    errors: {
      FORBIDDEN:
        'Not a member; not an admin or the owner (removing someone else); or the target is the owner',
      NOT_FOUND: 'No such workspace, or the person is not in it',
    },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/workspaces/{id}/members/{userId}',
      summary: 'Remove someone from a workspace (admins and the owner), or leave it (yourself)',
      description:
        'The owner cannot be removed. The debates the person created in the workspace stay in it; they keep ' +
        'reading and controlling those as their creator.',
    },
  })
  .input(WorkspaceMemberIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) =>
    ctx.services.workspaceMembers.remove(ctx.caller.userId, input.id, input.userId),
  );
