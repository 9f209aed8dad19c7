import type { NotificationPreferences } from '@verdict/contracts';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';

/** What a user who never chose gets: every email on. */
export const DEFAULT_PREFERENCES: NotificationPreferences = { emailComments: true, emailForks: true };

/** The user's email preferences, the defaults until they change one. */
export const preferences =
  ({ db }: NotificationResources) =>
  async (userId: string): Promise<NotificationPreferences> => {
    const row = await notificationQuery(db.em())
      .selectFrom('notification_preferences')
      .select(['email_comments', 'email_forks'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? { emailComments: row.email_comments, emailForks: row.email_forks } : DEFAULT_PREFERENCES;
  };
