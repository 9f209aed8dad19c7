import { z } from 'zod';

export const NotificationType = z.enum(['comment', 'fork']);
export type NotificationType = z.infer<typeof NotificationType>;

/** Notification (spec). */
export const Notification = z
  .object({
    id: z.uuid(),
    type: NotificationType,
    message: z.string(),
    debateId: z.string().nullable(),
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    read: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

export const NotificationListQuery = z.object({
  cursor: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'createdAt of the last notification of the previous page' }),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationPage = z
  .object({
    notifications: z.array(Notification).meta({ description: 'Newest first, read and unread' }),
    unreadCount: z.number().int(),
    nextCursor: z.iso.datetime().nullable().meta({ description: 'Pass as cursor for the next page' }),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof NotificationPage>;

export const UnreadCount = z.object({ unreadCount: z.number().int() }).meta({ id: 'UnreadCount' });

/** PATCH /api/notifications/read: either `ids` (1–100) or `all: true`, not both. */
export const MarkReadInput = z
  .strictObject({
    ids: z.array(z.uuid().toLowerCase()).min(1).max(100).optional(),
    all: z.literal(true).optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.ids === undefined) === (input.all === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ids'], message: 'Send either ids (1–100) or all: true' });
    }
  });
export type MarkReadInput = z.infer<typeof MarkReadInput>;

export const MarkReadResult = z.object({ updated: z.number().int(), unreadCount: z.number().int() });

export const NotificationPreferences = z
  .object({ emailComments: z.boolean(), emailForks: z.boolean() })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const UpdatePreferencesInput = z.strictObject({
  emailComments: z.boolean().optional(),
  emailForks: z.boolean().optional(),
});

/** The preference an unsubscribe link turns off: `comments` → emailComments, `forks` → emailForks. */
export const UnsubscribeType = z.enum(['comments', 'forks']);
export type UnsubscribeType = z.infer<typeof UnsubscribeType>;
