import type { NotificationPreferences } from '@verdict/contracts';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';
import { DEFAULT_PREFERENCES } from './preferences.ts';

/** Changes the preferences given, the others kept (the defaults for a user who had none); answers them all. */
export const updatePreferences =
  ({ db, clock }: NotificationResources) =>
  async (userId: string, change: Partial<NotificationPreferences>): Promise<NotificationPreferences> => {
    const now = new Date(clock.now());
    const set = {
      ...(change.emailComments === undefined ? {} : { email_comments: change.emailComments }),
      ...(change.emailForks === undefined ? {} : { email_forks: change.emailForks }),
      updated_at: now,
    };
    const row = await notificationQuery(db.em())
      .insertInto('notification_preferences')
      .values({
        user_id: userId,
        email_comments: change.emailComments ?? DEFAULT_PREFERENCES.emailComments,
        email_forks: change.emailForks ?? DEFAULT_PREFERENCES.emailForks,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
      .returning(['email_comments', 'email_forks'])
      .executeTakeFirstOrThrow();
    return { emailComments: row.email_comments, emailForks: row.email_forks };
  };
