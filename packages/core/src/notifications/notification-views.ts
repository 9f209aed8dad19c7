import type { Notification } from '@verdict/contracts';

/** A place in a user's notifications, oldest first: the one with this createdAt and id. */
export type NotificationMark = { createdAt: string; id: string };

/** A notification's row as the inbox and the stream read it. */
export type NotificationRow = {
  id: string;
  type: Notification['type'];
  message: string;
  debate_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  read: boolean;
  created_at: string;
};

export const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  type: row.type,
  message: row.message,
  debateId: row.debate_id ?? null,
  actorId: row.actor_id ?? null,
  actorName: row.actor_name ?? null,
  read: row.read,
  createdAt: new Date(row.created_at).toISOString(),
});
