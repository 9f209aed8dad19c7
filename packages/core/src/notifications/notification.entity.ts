import { defineEntity, p } from '@mikro-orm/core';
import type { NotificationType } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';
import { Debate } from '../debates/debate.entity.ts';

/** Where a notification's email stands: none wanted (or no SMTP), waiting for the mailer, sent, or given up. */
export type EmailState = 'none' | 'pending' | 'sent' | 'failed';

/**
 * Something that happened to a user's debate. Written in the transaction of what it reports (the comment,
 * the fork); its email, when one is due, is sent from here by the mailer (at least once, after commit).
 */
export const NotificationSchema = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  indexes: [
    { name: 'notifications_user_created_index', properties: ['user', 'createdAt'] },
    {
      name: 'notifications_unread_index',
      expression: `create index "notifications_unread_index" on "notifications" ("user_id") where "read" = false`,
    },
    {
      name: 'notifications_email_pending_index',
      expression: `create index "notifications_email_pending_index" on "notifications" ("created_at") where "email_state" = 'pending'`,
    },
  ],
  checks: [
    { name: 'notifications_type_check', expression: `type in ('comment', 'fork')` },
    {
      name: 'notifications_email_state_check',
      expression: `email_state in ('none', 'pending', 'sent', 'failed')`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    type: p.string().length(20).$type<NotificationType>(),
    message: p.text(),
    debate: () => p.manyToOne(Debate).nullable().deleteRule('set null').index(),
    actor: () => p.manyToOne(User).nullable().deleteRule('set null'),
    actorName: p.string().length(100).nullable(),
    read: p.boolean().default(false),
    emailState: p.string().length(10).$type<EmailState>().default('none'),
    emailAttempts: p.integer().default(0),
    /** When the mailer may try this email (again); its back-off after a failed attempt. */
    emailNextAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class Notification extends NotificationSchema.class {}
NotificationSchema.setClass(Notification);
