import { UnreadCount } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const unreadCount = userProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/notifications/unread-count', summary: 'Unread notifications' },
  })
  .input(z.object({}))
  .output(UnreadCount)
  .query(async ({ ctx }) => ({
    unreadCount: await ctx.services.notifications.unreadCount(ctx.caller.userId),
  }));
