import { DeprovisionInput, DeprovisionResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const deprovision = userProcedure
  .meta({
    extension: true,
    errors: {
      BYOK_REQUIRED: "Single sign-on needs the Enterprise plan (the workspace owner's)",
      FORBIDDEN: 'Not an admin or the owner of the workspace; or the email is the owner’s',
      NOT_FOUND: 'No such workspace',
    },
    openapi: {
      method: 'POST',
      path: '/api/workspaces/{id}/sso/deprovision',
      summary:
        'Deprovision someone who left: out of the workspace and signed out of it (admins and the owner)',
      description:
        "For an offboarding script, with an admin's API key: removes the person the email names from the " +
        'workspace and ends the sessions its single sign-on opened for them, at once. The provider decides who ' +
        'may sign in: should it still let them, they join again. Idempotent: a second call removes nothing.',
    },
  })
  .input(DeprovisionInput)
  .output(DeprovisionResult)
  .mutation(({ ctx, input }) => ctx.services.sso.deprovision(ctx.caller.userId, input.id, input.email));
