import { NotificationListQuery, NotificationPage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const listNotifications = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/notifications',
      summary: 'Your notifications, newest first, with the overall unread count',
      description: 'Pass nextCursor (the createdAt of the last item) as cursor for the next page.',
    },
  })
  .input(NotificationListQuery)
  .output(NotificationPage)
  .query(({ ctx, input }) => ctx.services.notifications.list(ctx.caller.userId, input));
