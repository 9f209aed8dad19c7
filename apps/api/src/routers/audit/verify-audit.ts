import { AuditVerification, AuditVerifyQuery } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const verifyAudit = userProcedure
  .meta({
    extension: true,
    errors: {
      BYOK_REQUIRED:
        "The audit log needs the Pro, BYOK Pro or Enterprise plan (the caller's, or the workspace owner's)",
      FORBIDDEN: 'workspaceId names a workspace the caller is not an admin or the owner of',
      NOT_FOUND: 'workspaceId names no workspace',
    },
    openapi: {
      method: 'GET',
      path: '/api/audit/verify',
      summary: 'Check an audit trail: every entry in order, linked and hashing to what it says',
      description:
        "Walks the caller's account's trail (or, with workspaceId, the workspace's) from its latest retention " +
        'checkpoint: verified, how many entries were checked, and the first that does not hold with why ' +
        '(missing, not linked to the one before, or altered).',
    },
  })
  .input(AuditVerifyQuery)
  .output(AuditVerification)
  .query(({ ctx, input }) => ctx.services.audit.verify(ctx.caller.userId, input));
