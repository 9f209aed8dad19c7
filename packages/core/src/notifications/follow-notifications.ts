import type { Notification } from '@verdict/contracts';
import type { NotificationResources } from './notification-resources.ts';

/**
 * Wakes `onNotification` for each of the user's notifications published from now on (the stream route),
 * until the returned function is called. Publishing is after commit and at most once, in no guaranteed
 * order: the stream reads what to send with `after`, in stored order, and takes a publish as the cue.
 */
export const followNotifications =
  ({ bus }: NotificationResources) =>
  (userId: string, onNotification: (notification: Notification) => void) =>
    bus.notifications.subscribe(userId, onNotification);
