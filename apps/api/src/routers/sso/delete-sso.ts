import { WorkspaceIdInput } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const deleteSso = userProcedure
  .meta({
    extension: true,
    errors: {
      FORBIDDEN: 'Not the owner of the workspace',
      NOT_FOUND: 'No such workspace, or it has no single sign-on set up',
    },
    successStatus: 204,
    openapi: {
      method: 'DELETE',
      path: '/api/workspaces/{id}/sso',
      summary: "Turn a workspace's single sign-on off (the owner)",
      description:
        'The connection is removed and password sign-in is no longer refused; the accounts it linked stay linked ' +
        'for the same provider set up again. ' +
        'Allowed whatever the plan, so a workspace whose plan lapsed can still remove it.',
    },
  })
  .input(WorkspaceIdInput)
  .output(z.void())
  .mutation(({ ctx, input }) => ctx.services.sso.remove(ctx.caller.userId, input.id));
