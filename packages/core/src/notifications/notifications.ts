import { followNotifications } from './follow-notifications.ts';
import { listNotifications } from './list-notifications.ts';
import { markRead } from './mark-read.ts';
import type { NotificationResources } from './notification-resources.ts';
import { notificationsAfter } from './notifications-after.ts';
import { preferences } from './preferences.ts';
import { publishNotification } from './publish-notification.ts';
import { streamStart } from './stream-start.ts';
import { unreadCount } from './unread-count.ts';
import { unsubscribe } from './unsubscribe.ts';
import { updatePreferences } from './update-preferences.ts';

export type { NotificationResources } from './notification-resources.ts';
export type { NotificationMark } from './notification-views.ts';

export type Notifications = ReturnType<typeof createNotifications>;

/**
 * A user's notifications: the inbox, its unread count, read marks, email preferences and live delivery.
 * One operation a file, over the resources given here.
 */
export function createNotifications(resources: NotificationResources) {
  return {
    list: listNotifications(resources),
    unreadCount: unreadCount(resources),
    markRead: markRead(resources),
    preferences: preferences(resources),
    updatePreferences: updatePreferences(resources),
    unsubscribe: unsubscribe(resources),
    publish: publishNotification(resources),
    follow: followNotifications(resources),
    streamStart: streamStart(resources),
    after: notificationsAfter(resources),
  };
}
