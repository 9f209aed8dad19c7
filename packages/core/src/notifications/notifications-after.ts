import type { Notification } from '@verdict/contracts';
import { type NotificationResources, notificationQuery } from './notification-resources.ts';
import { type NotificationMark, toNotification } from './notification-views.ts';

/**
 * The user's notifications stored after `mark` (all of them for null), oldest first, at most `limit`.
 * A user's notifications commit in createdAt order (record.ts), so nothing can later appear before the
 * last one read: reading on from it misses none and repeats none.
 */
export const notificationsAfter =
  ({ db }: NotificationResources) =>
  async (userId: string, mark: NotificationMark | null, limit: number): Promise<Notification[]> => {
    let select = notificationQuery(db.em())
      .selectFrom('notifications')
      .select(['id', 'type', 'message', 'debate_id', 'actor_id', 'actor_name', 'read', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit);
    if (mark) {
      select = select.where(
        (eb) => eb.refTuple('created_at', 'id'),
        '>',
        (eb) => eb.tuple(new Date(mark.createdAt).toISOString(), mark.id),
      );
    }
    return (await select.execute()).map(toNotification);
  };
