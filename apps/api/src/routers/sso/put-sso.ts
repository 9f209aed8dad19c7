import { PutSsoConnectionInput, SsoConnection } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const putSso = userProcedure
  .meta({
    extension: true,
    errors: {
      VALIDATION_ERROR:
        "A field out of its format; an OIDC issuer whose discovery document cannot be read; SAML metadata or a certificate that cannot be read, or a provider's entity id, SSO URL or certificate missing",
      BYOK_REQUIRED: "Single sign-on needs the Enterprise plan (the workspace owner's)",
      FORBIDDEN: 'Not the owner of the workspace',
      NOT_FOUND: 'No such workspace',
      SERVICE_UNAVAILABLE: 'A client secret was given but the server has no SSO_SECRET_KEY to store it with',
    },
    openapi: {
      method: 'PUT',
      path: '/api/workspaces/{id}/sso',
      summary: "Set up or replace a workspace's single sign-on (the owner, on Enterprise)",
      description:
        'OIDC: the issuer (its discovery document is read now), the client id and secret (stored encrypted; ' +
        'left out on an update, the stored one is kept). SAML: the provider metadata, or its entity id, SSO URL ' +
        'and signing certificate. Both: the email domains it may sign in, the role people join with, and ' +
        'whether password sign-in is refused to members of those domains (the owner keeps it).' +
        ' Accounts stay linked to the provider subjects that signed them in, each only for its own issuer.',
    },
  })
  .input(PutSsoConnectionInput)
  .output(SsoConnection)
  .mutation(({ ctx, input }) => {
    const { id, ...connection } = input;
    return ctx.services.sso.configure(ctx.caller.userId, id, connection);
  });
