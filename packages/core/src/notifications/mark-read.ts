import type { MarkReadInput } from '@verdict/contracts';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';
import { unreadCount } from './unread-count.ts';

/**
 * Marks the named ones, or all of them, read, and answers how many changed. Only the caller's own are
 * marked and counted: an id of someone else's notification is ignored exactly like an unknown one (200,
 * `updated` not counting it), so the answer never reveals whether an id exists. The spec lists no 404
 * for this route, and one would be that very oracle.
 */
export const markRead = (resources: NotificationResources) => {
  const countUnread = unreadCount(resources);
  return async (userId: string, input: MarkReadInput) => {
    let update = notificationQuery(resources.db.em())
      .updateTable('notifications')
      .set({ read: true })
      .where('user_id', '=', userId)
      .where('read', '=', false);
    if (input.ids) update = update.where('id', 'in', input.ids);
    const result = await update.executeTakeFirst();
    return { updated: Number(result.numUpdatedRows), unreadCount: await countUnread(userId) };
  };
};
