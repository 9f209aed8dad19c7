import type { Notification } from '@verdict/contracts';
import type { NotificationMark, Services } from '@verdict/core';

/** Notifications read per query when catching up (a reconnect after a long time reads several batches). */
const CATCH_UP_BATCH = 100;

/** A user's notifications as a stream sends them, whatever carries it (the SSE route, the tRPC subscription). */
export type NotificationFeed = {
  /**
   * Each notification once, oldest first, from where the stream starts; it waits for more until `close`,
   * then ends. Read it once. It throws when the inbox cannot be read (the client resumes from its last id).
   */
  notifications: AsyncGenerator<Notification, void>;
  /**
   * Stops following the user's notifications and ends `notifications`, which then throws `error` when one is
   * given (a server that closes: the client is to reconnect); idempotent.
   */
  close: (error?: Error) => void;
};

/**
 * The notifications of `userId` after `lastSeenId` when it is one of theirs (a reconnect's Last-Event-ID),
 * else those from now on (core's streamStart): none missed, none twice.
 *
 * What is sent is always read from the stored inbox, in stored order, after the last one sent; a publish on
 * the bus (after its commit) only says there is more to read. A user's notifications commit in createdAt
 * order (core's notifications/record.ts), so reading on from the last one sent cannot skip one that commits
 * later. The feed subscribes before it reads where the stream starts, so whatever commits after that is
 * cued; it throws, having sent nothing, when it cannot. A feed costs one bus subscription, and one read per
 * cue: a cue during a read makes one more read.
 */
export async function openNotificationFeed(
  core: Services,
  userId: string,
  lastSeenId: string | null,
): Promise<NotificationFeed> {
  /** Whether something may be stored past `mark`: true at the start, then set by each publish. */
  let cued = true;
  let closed = false;
  /** What `notifications` throws once closed, if anything. */
  let failure: Error | undefined;
  let wake: (() => void) | null = null;
  const stopFollowing = await core.notifications.follow(userId, () => {
    cued = true;
    wake?.();
  });
  /** The last notification sent (or where the stream starts); what is read next comes after it. */
  let mark: NotificationMark | null;
  try {
    mark = await core.notifications.streamStart(userId, lastSeenId);
  } catch (error) {
    stopFollowing();
    throw error;
  }

  const close = (error?: Error) => {
    if (closed) return;
    closed = true;
    failure = error;
    stopFollowing();
    wake?.();
  };

  /** What is stored after `mark`, batch by batch, until a batch is not full or the feed closes. */
  async function* storedAfterMark(): AsyncGenerator<Notification, void> {
    for (;;) {
      const batch = await core.notifications.after(userId, mark, CATCH_UP_BATCH);
      for (const notification of batch) {
        if (closed) return;
        mark = { id: notification.id, createdAt: notification.createdAt };
        yield notification;
      }
      if (closed) return;
      if (batch.length < CATCH_UP_BATCH) return;
    }
  }

  async function* notifications(): AsyncGenerator<Notification, void> {
    try {
      while (!closed) {
        if (cued) {
          cued = false;
          yield* storedAfterMark();
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
      if (failure) throw failure;
    } finally {
      close();
    }
  }

  return { notifications: notifications(), close };
}
