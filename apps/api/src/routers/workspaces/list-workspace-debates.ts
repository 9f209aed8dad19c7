import { DebatePage, WorkspaceDebatesQuery } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { ONE_WORKSPACE_ERRORS } from './error-responses.ts';

export const listWorkspaceDebates = userProcedure
  .meta({
    errors: ONE_WORKSPACE_ERRORS,
    openapi: {
      method: 'GET',
      path: '/api/workspaces/{id}/debates',
      summary: 'A workspace’s debates, whoever created them, newest first (any member)',
    },
  })
  .input(WorkspaceDebatesQuery)
  .output(DebatePage)
  .query(({ ctx, input }) =>
    ctx.services.debates.list(ctx.caller.userId, {
      workspaceId: input.id,
      page: input.page,
      limit: input.limit,
      sortBy: 'createdAt',
      sortOrder: 'desc',
    }),
  );
