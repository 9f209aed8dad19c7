import { defineEntity, p } from '@mikro-orm/core';
import type { WebhookEvent } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

/**
 * A user's webhook: where the events they subscribed to are POSTed. The secret is stored as issued because
 * every delivery is signed with it (an HMAC needs the key itself; a hash of it would not do); it is shown
 * once at creation and read back only by the delivery worker, never by a route.
 */
export const WebhookSchema = defineEntity({
  name: 'Webhook',
  tableName: 'webhooks',
  indexes: [{ name: 'webhooks_user_created_index', properties: ['user', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    url: p.string().length(2000),
    events: p.array<WebhookEvent>().columnType('text[]'),
    active: p.boolean().default(true),
    description: p.string().length(500).nullable(),
    secret: p.string().length(100),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class Webhook extends WebhookSchema.class {}
WebhookSchema.setClass(Webhook);
