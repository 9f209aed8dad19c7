import type { UnsubscribeType } from '@verdict/contracts';
import type { AccountTables } from '../accounts/tables.ts';
import { query } from '../db/kysely.ts';
import type { NotificationResources } from './notification-resources.ts';
import { isValidUnsubscribeToken } from './unsubscribe-token.ts';
import { updatePreferences } from './update-preferences.ts';

/**
 * An unsubscribe link's click: turns that email off when the token is the link's (HMAC-SHA256, checked
 * in constant time). False for a forged, altered or foreign token, or a user that no longer exists.
 */
export const unsubscribe = (resources: NotificationResources) => {
  const update = updatePreferences(resources);
  return async (userId: string, type: UnsubscribeType, token: string): Promise<boolean> => {
    if (!isValidUnsubscribeToken(resources.linkSecret, userId, type, token)) return false;
    const user = await query<AccountTables>(resources.db.em())
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .executeTakeFirst();
    // A deleted account has nothing left to turn off.
    if (!user) return false;
    await update(userId, type === 'comments' ? { emailComments: false } : { emailForks: false });
    return true;
  };
};
