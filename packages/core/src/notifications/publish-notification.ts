import type { Notification } from '@verdict/contracts';
import type { NotificationResources } from './notification-resources.ts';

/** Live delivery after commit; the stored notification is the record, so a lost publish only delays it. */
export const publishNotification =
  ({ bus, onError }: NotificationResources) =>
  (userId: string, notification: Notification) => {
    bus.notifications.publish(userId, notification).catch(onError);
  };
