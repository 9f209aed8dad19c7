import { DebateListQuery, DebatePage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listDebates = userProcedure
  .meta({
    errors: {
      FORBIDDEN: 'workspaceId names a workspace the caller is not a member of',
      NOT_FOUND: 'workspaceId names no workspace',
    },
    openapi: {
      method: 'GET',
      path: '/api/debates',
      summary: "The caller's debates, newest first by default; deleted ones are not listed",
      description:
        "With workspaceId: that workspace's debates, whoever created them (members only), instead of the " +
        "caller's own.",
    },
  })
  .input(DebateListQuery)
  .output(DebatePage)
  .query(({ ctx, input }) => ctx.services.debates.list(ctx.caller.userId, input));
