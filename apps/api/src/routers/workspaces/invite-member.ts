import { InviteMemberInput, WorkspaceMember } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const inviteMember = userProcedure
  .meta({
    errors: {
      FORBIDDEN:
        'Not a member; a viewer; a member while the workspace does not allow member invites; or a member ' +
        'inviting an admin',
      NOT_FOUND: 'No such workspace, or no account has this email',
      CONFLICT: 'The person is already a member',
      BYOK_REQUIRED: 'The owner’s plan no longer includes workspaces (checked before seats)',
      SEAT_LIMIT_REACHED: 'Every seat of the owner’s plan is taken',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/workspaces/{id}/members',
      summary: 'Add an existing account to a workspace as admin, member or viewer',
      description:
        'Admins and the owner may invite; members too (as member or viewer) while settings.allowMemberInvites ' +
        'is not false. The ' +
        'person must already have an account. Seats come from the owner’s plan (BYOK Pro 10, Enterprise ' +
        'unlimited), the owner included.',
    },
  })
  .input(InviteMemberInput)
  .output(WorkspaceMember)
  .mutation(({ ctx, input }) => ctx.services.workspaceMembers.invite(ctx.caller.userId, input));
