import { router } from '../../trpc/init.ts';
import { getPreferences } from './get-preferences.ts';
import { listNotifications } from './list-notifications.ts';
import { markRead } from './mark-read.ts';
import { streamNotifications } from './stream-notifications.ts';
import { unreadCount } from './unread-count.ts';
import { updatePreferences } from './update-preferences.ts';

export const notificationsRouter = router({
  list: listNotifications,
  unreadCount,
  markRead,
  preferences: getPreferences,
  updatePreferences,
  stream: streamNotifications,
});
