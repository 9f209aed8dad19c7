import { CreateWorkspaceInput, WORKSPACES_PER_OWNER_MAX, Workspace } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const createWorkspace = userProcedure
  .meta({
    errors: {
      VALIDATION_ERROR: `The caller already owns ${WORKSPACES_PER_OWNER_MAX} workspaces`,
      BYOK_REQUIRED: 'The caller’s plan has no workspaces (BYOK Pro or Enterprise has)',
      CONFLICT: 'The slug is taken',
    },
    successStatus: 201,
    openapi: {
      method: 'POST',
      path: '/api/workspaces',
      summary: 'Create a workspace; the caller becomes its owner',
      description:
        'Needs the BYOK Pro or Enterprise plan. The owner’s plan pays for the workspace’s debates and sets ' +
        'its seats (BYOK Pro 10, Enterprise unlimited, the owner included). Settings not given take their ' +
        'defaults: allowMemberInvites true, defaultDebateMode fast, requireApprovalForPublicDebates false.',
    },
  })
  .input(CreateWorkspaceInput)
  .output(Workspace)
  .mutation(({ ctx, input }) => ctx.services.workspaces.create(ctx.caller.userId, input));
