import { SsoConnection, WorkspaceIdInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const getSso = userProcedure
  .meta({
    extension: true,
    errors: {
      BYOK_REQUIRED: "Single sign-on needs the Enterprise plan (the workspace owner's)",
      FORBIDDEN: 'Not a member, or a member or viewer (admins and the owner only)',
      NOT_FOUND: 'No such workspace, or it has no single sign-on set up',
    },
    openapi: {
      method: 'GET',
      path: '/api/workspaces/{id}/sso',
      summary: "A workspace's single sign-on connection (admins and the owner)",
      description:
        'The identity provider (OIDC or SAML), who it may sign in, and what to register with the provider ' +
        '(serviceProvider). The client secret is never shown: hasClientSecret says whether one is set.',
    },
  })
  .input(WorkspaceIdInput)
  .output(SsoConnection)
  .query(({ ctx, input }) => ctx.services.sso.read(ctx.caller.userId, input.id));
