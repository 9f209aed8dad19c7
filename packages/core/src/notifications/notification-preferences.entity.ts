import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/** A user's email choices; no row means the defaults (both on). */
export const NotificationPreferencesSchema = defineEntity({
  name: 'NotificationPreferences',
  tableName: 'notification_preferences',
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action'),
    emailComments: p.boolean().default(true),
    emailForks: p.boolean().default(true),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class NotificationPreferences extends NotificationPreferencesSchema.class {}
NotificationPreferencesSchema.setClass(NotificationPreferences);
