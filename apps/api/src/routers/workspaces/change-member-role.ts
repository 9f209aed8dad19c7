import { UpdateMemberRoleInput, WorkspaceMember } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const changeMemberRole = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'Not a member; not an admin or the owner; or the target is the owner',
      NOT_FOUND: 'No such workspace, or the person is not in it',
    },
    openapi: {
      method: 'PATCH',
      path: '/api/workspaces/{id}/members/{userId}',
      summary: 'Give a member another role: admin, member or viewer (admins and the owner)',
      description: 'The owner role cannot be given, and the owner’s role cannot be changed.',
    },
  })
  .input(UpdateMemberRoleInput)
  .output(WorkspaceMember)
  .mutation(({ ctx, input }) => ctx.services.workspaceMembers.changeRole(ctx.caller.userId, input));
