import { AuditListQuery, AuditPage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listAudit = userProcedure
  .meta({
    extension: true,
    errors: {
      VALIDATION_ERROR: 'A filter out of its format, a limit out of 1-200, or a cursor no page gave',
      BYOK_REQUIRED:
        "The audit log needs the Pro, BYOK Pro or Enterprise plan (the caller's, or the workspace owner's)",
      FORBIDDEN: 'workspaceId names a workspace the caller is not an admin or the owner of',
      NOT_FOUND: 'workspaceId names no workspace',
    },
    openapi: {
      method: 'GET',
      path: '/api/audit',
      summary: "A page of an audit trail, newest first: the caller's account's, or a workspace's",
      description:
        'Who changed what, from where: each entry with its actor (a user, a key, an operator or the service), ' +
        'action, target, origin (IP, user agent, request id), the fields it changed (secrets only as changed) ' +
        'and the hashes chaining it to the entry before. Filters: actor (a user id), action (exact, or a ' +
        'prefix ending with `.`), targetType, targetId, from (inclusive) and to (exclusive). Paged by cursor ' +
        '(limit 1-200, default 50). With workspaceId: that workspace, for its admins and owner.',
    },
  })
  .input(AuditListQuery)
  .output(AuditPage)
  .query(({ ctx, input }) => ctx.services.audit.list(ctx.caller.userId, input));
