import { MarkReadInput, MarkReadResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const markRead = userProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/notifications/read',
      summary: 'Mark notifications read',
      description:
        "Either ids (1–100 of your notifications' ids; others are ignored) or all: true, not both. Answers " +
        'how many changed and the unread count after.',
    },
  })
  .input(MarkReadInput)
  .output(MarkReadResult)
  .mutation(({ ctx, input }) => ctx.services.notifications.markRead(ctx.caller.userId, input));
