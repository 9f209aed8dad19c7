import { WorkspaceList } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const listWorkspaces = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/workspaces',
      summary: 'The workspaces the caller belongs to, newest first, with their role in each',
    },
  })
  .input(z.void())
  .output(WorkspaceList)
  .query(({ ctx }) => ctx.services.workspaces.list(ctx.caller.userId));
