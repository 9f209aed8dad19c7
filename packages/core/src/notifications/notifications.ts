import type {
  MarkReadInput,
  Notification,
  NotificationListQuery,
  NotificationPage,
  NotificationPreferences,
  UnsubscribeType,
} from '@verdict/contracts';
import { sql } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { NotificationChannel } from '../bus/ports.ts';
import { query } from '../db/kysely.ts';
import type { Database } from '../db/orm.ts';
import type { Clock } from '../shared/clock.ts';
import { storableInstant } from '../shared/storable-instant.ts';
import type { NotificationTables } from './tables.ts';
import { isValidUnsubscribeToken } from './unsubscribe-token.ts';

type Row = {
  id: string;
  type: Notification['type'];
  message: string;
  debate_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  read: boolean;
  created_at: string;
};

const toNotification = (row: Row): Notification => ({
  id: row.id,
  type: row.type,
  message: row.message,
  debateId: row.debate_id ?? null,
  actorId: row.actor_id ?? null,
  actorName: row.actor_name ?? null,
  read: row.read,
  createdAt: new Date(row.created_at).toISOString(),
});

const DEFAULT_PREFERENCES: NotificationPreferences = { emailComments: true, emailForks: true };

export type Notifications = ReturnType<typeof createNotifications>;

/** A place in a user's notifications, oldest first: the one with this createdAt and id. */
export type NotificationMark = { createdAt: string; id: string };

/** A user's notifications: the inbox, its unread count, read marks, email preferences and live delivery. */
export function createNotifications(
  db: Database,
  clock: Clock,
  channel: NotificationChannel,
  settings: { linkSecret: string | null },
  onError: (error: unknown) => void,
) {
  const k = () => query<NotificationTables>(db.em());

  const unreadCount = async (userId: string) =>
    (
      await k()
        .selectFrom('notifications')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('user_id', '=', userId)
        .where('read', '=', false)
        .executeTakeFirstOrThrow()
    ).n;

  const preferences = async (userId: string): Promise<NotificationPreferences> => {
    const row = await k()
      .selectFrom('notification_preferences')
      .select(['email_comments', 'email_forks'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? { emailComments: row.email_comments, emailForks: row.email_forks } : DEFAULT_PREFERENCES;
  };

  const updatePreferences = async (
    userId: string,
    change: Partial<NotificationPreferences>,
  ): Promise<NotificationPreferences> => {
    const now = new Date(clock.now());
    const set = {
      ...(change.emailComments === undefined ? {} : { email_comments: change.emailComments }),
      ...(change.emailForks === undefined ? {} : { email_forks: change.emailForks }),
      updated_at: now,
    };
    const row = await k()
      .insertInto('notification_preferences')
      .values({
        user_id: userId,
        email_comments: change.emailComments ?? DEFAULT_PREFERENCES.emailComments,
        email_forks: change.emailForks ?? DEFAULT_PREFERENCES.emailForks,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
      .returning(['email_comments', 'email_forks'])
      .executeTakeFirstOrThrow();
    return { emailComments: row.email_comments, emailForks: row.email_forks };
  };

  return {
    /** Newest first; `cursor` is the createdAt of the previous page's last item. */
    list: async (userId: string, page: NotificationListQuery): Promise<NotificationPage> => {
      let select = k()
        .selectFrom('notifications')
        .select(['id', 'type', 'message', 'debate_id', 'actor_id', 'actor_name', 'read', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1);
      if (page.cursor) select = select.where('created_at', '<', storableInstant(page.cursor));
      const [rows, unread] = await Promise.all([select.execute(), unreadCount(userId)]);
      const items = rows.slice(0, page.limit).map(toNotification);
      const more = rows.length > page.limit;
      return {
        notifications: items,
        unreadCount: unread,
        nextCursor: more ? (items.at(-1)?.createdAt ?? null) : null,
      };
    },

    unreadCount,

    /**
     * Marks the named ones, or all of them, read, and answers how many changed. Only the caller's own are
     * marked and counted: an id of someone else's notification is ignored exactly like an unknown one (200,
     * `updated` not counting it), so the answer never reveals whether an id exists. The spec lists no 404
     * for this route, and one would be that very oracle.
     */
    markRead: async (userId: string, input: MarkReadInput) => {
      let update = k()
        .updateTable('notifications')
        .set({ read: true })
        .where('user_id', '=', userId)
        .where('read', '=', false);
      if (input.ids) update = update.where('id', 'in', input.ids);
      const result = await update.executeTakeFirst();
      return { updated: Number(result.numUpdatedRows), unreadCount: await unreadCount(userId) };
    },

    preferences,
    updatePreferences,

    /**
     * An unsubscribe link's click: turns that email off when the token is the link's (HMAC-SHA256, checked
     * in constant time). False for a forged, altered or foreign token, or a user that no longer exists.
     */
    unsubscribe: async (userId: string, type: UnsubscribeType, token: string): Promise<boolean> => {
      if (!isValidUnsubscribeToken(settings.linkSecret, userId, type, token)) return false;
      const user = await query<AccountTables>(db.em())
        .selectFrom('users')
        .select('id')
        .where('id', '=', userId)
        .executeTakeFirst();
      // A deleted account has nothing left to turn off.
      if (!user) return false;
      await updatePreferences(userId, type === 'comments' ? { emailComments: false } : { emailForks: false });
      return true;
    },

    /** Live delivery after commit; the stored notification is the record, so a lost publish only delays it. */
    publish: (userId: string, notification: Notification) => {
      channel.publish(userId, notification).catch(onError);
    },

    /**
     * Wakes `onNotification` for each of the user's notifications published from now on (the stream route),
     * until the returned function is called. Publishing is after commit and at most once, in no guaranteed
     * order: the stream reads what to send with `after`, in stored order, and takes a publish as the cue.
     */
    follow: (userId: string, onNotification: (notification: Notification) => void) =>
      channel.subscribe(userId, onNotification),

    /**
     * Where a stream of the user's notifications starts: after `lastSeenId` when it is one of the user's
     * (EventSource's Last-Event-ID on a reconnect), else after the newest one stored now, so that nothing
     * from before is replayed (the spec's stream without history); null: after nothing at all.
     */
    streamStart: async (userId: string, lastSeenId: string | null): Promise<NotificationMark | null> => {
      const select = k()
        .selectFrom('notifications')
        .select(['id', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1);
      const seen =
        lastSeenId === null ? undefined : await select.where('id', '=', lastSeenId).executeTakeFirst();
      const start = seen ?? (await select.executeTakeFirst());
      return start ? { id: start.id, createdAt: new Date(start.created_at).toISOString() } : null;
    },

    /**
     * The user's notifications stored after `mark` (all of them for null), oldest first, at most `limit`.
     * A user's notifications commit in createdAt order (record.ts), so nothing can later appear before the
     * last one read: reading on from it misses none and repeats none.
     */
    after: async (userId: string, mark: NotificationMark | null, limit: number): Promise<Notification[]> => {
      let select = k()
        .selectFrom('notifications')
        .select(['id', 'type', 'message', 'debate_id', 'actor_id', 'actor_name', 'read', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit);
      if (mark) {
        select = select.where(
          (eb) => eb.refTuple('created_at', 'id'),
          '>',
          (eb) => eb.tuple(new Date(mark.createdAt).toISOString(), mark.id),
        );
      }
      return (await select.execute()).map(toNotification);
    },
  };
}
