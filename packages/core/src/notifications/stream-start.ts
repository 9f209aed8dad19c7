import { type NotificationResources, notificationQuery } from './notification-resources.ts';
import type { NotificationMark } from './notification-views.ts';

/**
 * Where a stream of the user's notifications starts: after `lastSeenId` when it is one of the user's
 * (EventSource's Last-Event-ID on a reconnect), else after the newest one stored now, so that nothing
 * from before is replayed (the spec's stream without history); null: after nothing at all.
 */
export const streamStart =
  ({ db }: NotificationResources) =>
  async (userId: string, lastSeenId: string | null): Promise<NotificationMark | null> => {
    const select = notificationQuery(db.em())
      .selectFrom('notifications')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    const seen =
      lastSeenId === null ? undefined : await select.where('id', '=', lastSeenId).executeTakeFirst();
    const start = seen ?? (await select.executeTakeFirst());
    return start ? { id: start.id, createdAt: new Date(start.created_at).toISOString() } : null;
  };
