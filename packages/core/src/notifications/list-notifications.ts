import type { NotificationListQuery, NotificationPage } from '@verdict/contracts';
import { storableInstant } from '../shared/storable-instant.ts';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';
import { toNotification } from './notification-views.ts';
import { unreadCount } from './unread-count.ts';

/** The inbox, newest first, with its unread count; `cursor` is the createdAt of the previous page's last item. */
export const listNotifications = (resources: NotificationResources) => {
  const countUnread = unreadCount(resources);
  return async (userId: string, page: NotificationListQuery): Promise<NotificationPage> => {
    let select = notificationQuery(resources.db.em())
      .selectFrom('notifications')
      .select(['id', 'type', 'message', 'debate_id', 'actor_id', 'actor_name', 'read', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1);
    if (page.cursor) select = select.where('created_at', '<', storableInstant(page.cursor));
    const [rows, unread] = await Promise.all([select.execute(), countUnread(userId)]);
    const items = rows.slice(0, page.limit).map(toNotification);
    const more = rows.length > page.limit;
    return {
      notifications: items,
      unreadCount: unread,
      nextCursor: more ? (items.at(-1)?.createdAt ?? null) : null,
    };
  };
};
