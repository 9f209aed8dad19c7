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
        'Deprovision someone who left: out of the workspace, signed out of it, unlinked (admins and the owner)',
      description:
        "For an offboarding script, with an admin's API key: removes the person the email names from the " +
        "workspace, ends the sessions the workspace's single sign-on opened for them, and drops their link to " +
        'the provider, at once. Idempotent: a second call reports nothing removed.',
    },
  })
  .input(DeprovisionInput)
  .output(DeprovisionResult)
  .mutation(({ ctx, input }) => ctx.services.sso.deprovision(ctx.caller.userId, input.id, input.email));
