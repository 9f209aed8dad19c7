import { sql } from 'kysely';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';

/** How many of the user's notifications are unread. */
export const unreadCount =
  ({ db }: NotificationResources) =>
  async (userId: string) =>
    (
      await notificationQuery(db.em())
        .selectFrom('notifications')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', userId)
        .where('read', '=', false)
        .executeTakeFirstOrThrow()
    ).n;
