import { tracked } from '@trpc/server';
import { type Notification, NotificationStreamInput } from '@verdict/contracts';
import { AppError } from '@verdict/core';
import { openNotificationFeed } from '../../streams/notification-feed.ts';
import { openStreamsServing } from '../../streams/open-streams.ts';
import { userStreamProcedure } from '../../trpc/init.ts';
import { shuttingDown, subscription } from '../subscription.ts';

/**
 * `notifications.stream`, a subscription: the caller's notifications as GET /api/notifications/stream sends
 * them, each as `tracked(id, notification)` with the SSE stream's id. With `lastEventId` (httpSubscriptionLink
 * sends the last id back on a reconnect) it first sends those stored after it, oldest first, then the new ones:
 * none missed, none twice; without one, only those from now on. It subscribes before the stream opens, so a
 * notification made after tRPC's `connected` (onStarted) is sent. A process going away ends it with a
 * retryable SERVICE_UNAVAILABLE, after which the client reconnects and resumes.
 */
export const streamNotifications = userStreamProcedure
  .input(NotificationStreamInput)
  .subscription(async ({ ctx, input, signal }) => {
    if (openStreamsServing(ctx.req)?.closing) throw shuttingDown();
    const feed = await openNotificationFeed(ctx.services, ctx.caller.userId, input.lastEventId ?? null).catch(
      (cause: unknown) => {
        // Nothing was sent: the client may retry at once.
        throw new AppError('SERVICE_UNAVAILABLE', 'Try again shortly', { cause });
      },
    );
    return subscription(ctx, signal, { items: feed.notifications, end: feed.close }, toMessage);
  });

const toMessage = (notification: Notification) => tracked(notification.id, notification);
