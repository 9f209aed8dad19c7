import { z } from 'zod';
import { UuidInput } from './ids.ts';

export const WEBHOOK_DESCRIPTION_MAX = 500;
export const WEBHOOK_URL_MAX = 2000;
/** Webhooks one user may register: bounds GET /api/webhooks (not paginated) and the fan-out of one event. */
export const WEBHOOKS_PER_USER_MAX = 20;
export const WEBHOOK_DELIVERIES_LIMIT_MAX = 100;

/** The events a webhook may subscribe to (the spec's Webhook events, without the test endpoint's ping). */
export const WEBHOOK_EVENTS = [
  'debate.created',
  'debate.completed',
  'debate.failed',
  'outcome.recorded',
  'outcome.updated',
  'chain.created',
  'chain.updated',
] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** What a delivery carries: a subscribable event, or `ping` from POST /api/webhooks/:id/test. */
export const WebhookDeliveryEvent = z.enum([...WEBHOOK_EVENTS, 'ping']);
export type WebhookDeliveryEvent = z.infer<typeof WebhookDeliveryEvent>;

/**
 * Where deliveries go. https only unless the server allows http (WEBHOOK_ALLOW_HTTP, for local development),
 * which the server checks; private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE.
 */
const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(WEBHOOK_URL_MAX)
  .meta({ description: 'https:// address that receives the POSTs, e.g. https://example.com/hooks/verdict' });

const WebhookEvents = z
  .array(WebhookEvent)
  .min(1)
  .max(WEBHOOK_EVENTS.length)
  .refine((events) => new Set(events).size === events.length, 'An event is named twice')
  .meta({ description: 'The events to receive; at least one' });

const WebhookDescription = z.string().max(WEBHOOK_DESCRIPTION_MAX);

/** POST /api/webhooks. */
export const CreateWebhookInput = z.strictObject({
  url: WebhookUrl,
  events: WebhookEvents,
  description: WebhookDescription.nullable().optional(),
  active: z.boolean().default(true).meta({ description: 'Inactive webhooks receive no events' }),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const WebhookIdInput = z.object({ id: UuidInput });

/** PUT /api/webhooks/:id: the fields given change, the others keep their values. */
export const UpdateWebhookInput = z.strictObject({
  id: UuidInput,
  url: WebhookUrl.optional(),
  events: WebhookEvents.optional().meta({ description: 'Replaces the subscribed events; at least one' }),
  active: z.boolean().optional(),
  description: WebhookDescription.nullable().optional().meta({ description: 'null clears it' }),
});
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;

export const Webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(WebhookEvent),
    active: z.boolean(),
    description: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

/** POST /api/webhooks answer: the only time the secret is shown. */
export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({
    description:
      'Signing secret, shown once: whsec_ followed by base64. X-Verdict-Signature is the hex HMAC-SHA256 of ' +
      'the raw body keyed with this whole string; Standard Webhooks libraries take it as is for webhook-signature.',
  }),
}).meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** GET /api/webhooks. */
export const WebhookList = z
  .object({
    webhooks: z.array(Webhook).meta({ description: "The caller's webhooks, newest first, without secrets" }),
    supportedEvents: z.array(WebhookEvent).meta({ description: 'Every event a webhook may subscribe to' }),
  })
  .meta({ id: 'WebhookList' });
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivering', 'succeeded', 'failed']).meta({
  description: 'pending: waiting for its next attempt; failed: given up (after 4 attempts, or 410)',
});
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDeliveryAttempt = z
  .object({
    attempt: z.number().int().min(1),
    at: z.iso.datetime().meta({ description: 'When the attempt started' }),
    statusCode: z.number().int().nullable().meta({ description: 'null when no answer came' }),
    durationMs: z.number().int().min(0),
    responseBody: z.string().nullable().meta({ description: 'The first 1 KB of the answer' }),
    error: z.string().nullable().meta({ description: 'Why no answer came (timeout, refused address …)' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDelivery = z
  .object({
    deliveryId: z.uuid().meta({ description: 'Also the webhook-id header: the same on every attempt' }),
    event: WebhookDeliveryEvent,
    status: WebhookDeliveryStatus,
    attempts: z.number().int().min(0),
    nextAttemptAt: z.iso.datetime().nullable().meta({ description: 'When a pending delivery is tried next' }),
    lastStatusCode: z.number().int().nullable(),
    redeliveryOf: z.uuid().nullable().meta({ description: 'The delivery this one repeats (redeliver)' }),
    payload: z.string().meta({ description: 'The exact body sent (JSON text: event, id, timestamp, data)' }),
    createdAt: z.iso.datetime(),
    attemptLog: z.array(WebhookDeliveryAttempt).meta({ description: 'Oldest first' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** GET /api/webhooks/:id/deliveries. */
export const ListWebhookDeliveriesInput = z.object({
  id: UuidInput,
  limit: z.coerce.number().int().min(1).max(WEBHOOK_DELIVERIES_LIMIT_MAX).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type ListWebhookDeliveriesInput = z.infer<typeof ListWebhookDeliveriesInput>;

export const WebhookDeliveryList = z
  .object({
    deliveries: z.array(WebhookDelivery).meta({ description: 'Newest first' }),
    total: z.number().int().min(0),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/** POST /api/webhooks/:id/deliveries/:deliveryId/redeliver. */
export const RedeliverWebhookInput = z.object({ id: UuidInput, deliveryId: UuidInput });

/** Redeliver and test answers: the queued delivery. */
export const QueuedWebhookDelivery = z
  .object({
    deliveryId: z.uuid(),
    status: WebhookDeliveryStatus,
  })
  .meta({ id: 'QueuedWebhookDelivery' });
export type QueuedWebhookDelivery = z.infer<typeof QueuedWebhookDelivery>;
