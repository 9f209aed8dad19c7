import { NotificationPreferences, UpdatePreferencesInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';

export const updatePreferences = userProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/notification-preferences',
      summary: 'Turn notification emails on or off; answers the full preferences',
    },
  })
  .input(UpdatePreferencesInput)
  .output(NotificationPreferences)
  .mutation(({ ctx, input }) => ctx.services.notifications.updatePreferences(ctx.caller.userId, input));
