import type { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from '@verdict/contracts';

export const WEBHOOK_COLUMNS = [
  'id',
  'user_id',
  'url',
  'events',
  'active',
  'description',
  'created_at',
  'updated_at',
] as const;

export type WebhookRow = {
  id: string;
  user_id: string;
  url: string;
  events: Webhook['events'];
  active: boolean;
  description: string | null;
  created_at: string;
  updated_at: string;
};

/** A webhook as routes show it: never its secret (the columns above leave it out). */
export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  active: row.active,
  description: row.description ?? null,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

export const DELIVERY_COLUMNS = [
  'id',
  'event',
  'status',
  'attempts',
  'due_at',
  'last_status_code',
  'redelivery_of',
  'body',
  'created_at',
] as const;

export type DeliveryRow = {
  id: string;
  event: WebhookDelivery['event'];
  status: WebhookDelivery['status'];
  attempts: number;
  due_at: string | null;
  last_status_code: number | null;
  redelivery_of: string | null;
  body: string;
  created_at: string;
};

export type AttemptRow = {
  delivery_id: string;
  attempt: number;
  started_at: string;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
};

const toAttempt = (row: AttemptRow): WebhookDeliveryAttempt => ({
  attempt: row.attempt,
  at: new Date(row.started_at).toISOString(),
  statusCode: row.status_code ?? null,
  durationMs: row.duration_ms,
  responseBody: row.response_excerpt ?? null,
  error: row.error ?? null,
});

export const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery => ({
  deliveryId: row.id,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  // While one is being delivered, due_at is its claim's end, not an attempt anyone planned.
  nextAttemptAt: row.status === 'pending' && row.due_at ? new Date(row.due_at).toISOString() : null,
  lastStatusCode: row.last_status_code ?? null,
  redeliveryOf: row.redelivery_of ?? null,
  payload: row.body,
  createdAt: new Date(row.created_at).toISOString(),
  attemptLog: attempts.filter((a) => a.delivery_id === row.id).map(toAttempt),
});

/** What the audit trail shows of a webhook: where it posts, what and whether; its secret only as changed. */
export const auditedWebhook = (row: WebhookRow) => ({
  url: row.url,
  events: row.events,
  active: row.active,
  description: row.description ?? null,
});
