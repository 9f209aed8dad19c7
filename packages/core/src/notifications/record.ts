import type { EntityManager } from '@mikro-orm/core';
import type { Notification, NotificationType } from '@verdict/contracts';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { EmailState } from './notification.entity.ts';
import type { NotificationTables } from './tables.ts';

export type NewNotification = {
  userId: string;
  type: NotificationType;
  message: string;
  debateId: string | null;
  actorId: string | null;
  actorName: string | null;
};

/** The preference that lets a notification type be emailed. */
const EMAIL_PREFERENCE = { comment: 'email_comments', fork: 'email_forks' } as const;

/**
 * Stores a notification in the caller's transaction (the one writing what it reports). Its email is queued
 * for the mailer when the service sends email and the user's preference (default on) wants it.
 */
export async function recordNotification(
  em: EntityManager,
  notification: NewNotification,
  options: { emailEnabled: boolean; at: Date },
): Promise<Notification> {
  const preference = EMAIL_PREFERENCE[notification.type];
  const wantsEmail = options.emailEnabled
    ? sql<boolean>`coalesce((select ${sql.ref(preference)} from notification_preferences
        where user_id = ${notification.userId}), true)`
    : sql<boolean>`false`;
  const row = await query<NotificationTables>(em)
    .insertInto('notifications')
    .values({
      user_id: notification.userId,
      type: notification.type,
      message: notification.message,
      debate_id: notification.debateId,
      actor_id: notification.actorId,
      actor_name: notification.actorName,
      read: false,
      email_state: sql<EmailState>`case when ${wantsEmail} then 'pending' else 'none' end`,
      email_next_at: options.at,
      // Milliseconds, as the API shows them: a createdAt handed back as cursor then names this row exactly.
      created_at: options.at,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    type: notification.type,
    message: notification.message,
    debateId: notification.debateId,
    actorId: notification.actorId,
    actorName: notification.actorName,
    read: false,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
