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
 *
 * A user's notifications get createdAt in the order they commit, each after the one before (by a
 * millisecond at least, when the clocks say otherwise): the row is written, then a transaction-scoped lock
 * of the user's notifications is taken, and only then is its time settled against the latest one stored. So
 * "the notifications after this one" (the stream's Last-Event-ID, the list's cursor) never misses one that
 * committed later with an earlier time. The lock comes after the insert, whose foreign keys may wait on
 * other rows (the actor's, locked by a debate creation that itself records a notification); once it is held
 * the transaction waits on nothing more here, so the lock cannot close a cycle.
 */
export async function recordNotification(
  em: EntityManager,
  notification: NewNotification,
  options: { emailEnabled: boolean; at: Date },
): Promise<Notification> {
  const k = query<NotificationTables>(em);
  const preference = EMAIL_PREFERENCE[notification.type];
  const wantsEmail = options.emailEnabled
    ? sql<boolean>`coalesce((select ${sql.ref(preference)} from notification_preferences
        where user_id = ${notification.userId}), true)`
    : sql<boolean>`false`;
  const { id } = await k
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
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`select pg_advisory_xact_lock(hashtextextended(${`notifications:${notification.userId}`}, 0))`.execute(
    k,
  );
  const row = await k
    .updateTable('notifications')
    .set({
      created_at: sql<Date>`greatest(created_at, (
        select max(n.created_at) + interval '1 millisecond' from notifications as n
        where n.user_id = ${notification.userId} and n.id <> ${id}))`,
    })
    .where('id', '=', id)
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
