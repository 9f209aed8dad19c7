import { MarkReadInput, MarkReadResult } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

/** PATCH /api/notifications/read: see notifications.markRead for why ids that are not yours answer 200. */
export const markRead = userProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/notifications/read',
      summary: 'Mark notifications read',
      description:
        "Either ids (1–100 of your notifications' ids) or all: true, not both. Answers how many changed and " +
        'the unread count after. Only your own notifications are marked and counted: an id of another ' +
        "user's notification, or one that does not exist, is ignored (200, not counted in updated), so the " +
        'answer does not tell whether such an id exists.',
    },
  })
  .input(MarkReadInput)
  .output(MarkReadResult)
  .mutation(({ ctx, input }) => ctx.services.notifications.markRead(ctx.caller.userId, input));
