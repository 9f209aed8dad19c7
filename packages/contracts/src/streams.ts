import { z } from 'zod';
import type { StreamEventData } from './events.ts';
import { UuidInput } from './ids.ts';

/**
 * Where a debate stream resumes: the number (seq) of the last event the client got, as the text SSE's
 * Last-Event-ID and tRPC's `lastEventId` carry it; the stream sends the events after it.
 *
 * @example
 * LastEventSeq.parse('12') // 12
 */
export const LastEventSeq = z
  .string()
  .regex(/^\d+$/, 'Must be a non-negative integer')
  .transform(Number)
  .refine(Number.isSafeInteger, 'Too large');

/**
 * Where a notification stream resumes: the id of the last notification the client got, in any letter case.
 *
 * @example
 * LastNotificationId.parse('1B472F5B-0BE8-4CA4-9EE6-451C7C0A4AFF') // '1b472f5b-0be8-4ca4-9ee6-451c7c0a4aff'
 */
export const LastNotificationId = z.uuid('Must be the id of a notification this stream sent').toLowerCase();

/**
 * The input of the tRPC subscription `debates.stream`. `lastEventId` is the seq of the last event received;
 * tRPC's httpSubscriptionLink sets it on every reconnect from the last `tracked()` id, so a client only
 * passes it to start after an event it already has.
 *
 * @example
 * trpc.debates.stream.subscribe({ id }, { onData: ({ id, data }) => console.log(id, data.type) })
 */
export const DebateStreamInput = z.object({
  id: UuidInput,
  lastEventId: LastEventSeq.nullish(),
});
export type DebateStreamInput = z.input<typeof DebateStreamInput>;

/**
 * The input of the tRPC subscription `notifications.stream`: `lastEventId` is the id of the last notification
 * received (set by httpSubscriptionLink on a reconnect); without one, only notifications from now on come.
 *
 * @example
 * trpc.notifications.stream.subscribe({}, { onData: ({ data }) => console.log(data.message) })
 */
export const NotificationStreamInput = z.object({ lastEventId: LastNotificationId.nullish() });
export type NotificationStreamInput = z.input<typeof NotificationStreamInput>;

export type StreamEventType = keyof typeof StreamEventData;

/**
 * One event of `debates.stream`: the SSE stream's event name as `type` and its `data` (confidence in
 * whole-number percent), so `switch (message.type)` narrows `data`.
 */
export type DebateStreamMessage = {
  [T in StreamEventType]: { type: T; data: z.output<(typeof StreamEventData)[T]> };
}[StreamEventType];
