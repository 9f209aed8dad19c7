import { NotificationPreferences } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const getPreferences = userProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/notification-preferences',
      summary: 'Which notifications are also emailed (both on until turned off)',
    },
  })
  .input(z.object({}))
  .output(NotificationPreferences)
  .query(({ ctx }) => ctx.services.notifications.preferences(ctx.caller.userId));
