import type { EntityManager } from '@mikro-orm/core';
import { type RawBuilder, sql } from 'kysely';
import { currentTraceCarrier } from '../bus/trace-carrier.ts';
import { query } from '../db/kysely.ts';
import type { OutboxTables } from './tables.ts';

/**
 * The webhook outbox row a change writes in its own transaction, for the webhooks feature to fan out later.
 * It sits below every feature that reports a change (debates, outcomes, chains) so that none of them imports
 * webhooks/, which sits above them. outbox/ owns the table: its entity (outbox-entry.entity.ts) and every
 * statement that writes it (this module, and dispatch-statements.ts for the fan-out and retention). The
 * `debates` columns the inserts read the owner from are spelled out here, read only: debates/ sits above.
 */
type QueueTables = OutboxTables & { debates: { id: string; owner_id: string } };

/** The webhook events about a debate: its lifecycle and its outcome (the spec's Webhook events). */
export type DebateWebhookEvent =
  | 'debate.created'
  | 'debate.completed'
  | 'debate.failed'
  | 'outcome.recorded'
  | 'outcome.updated';

/**
 * Queues a webhook event about a debate for its owner, in the caller's transaction (the one that writes what
 * the event reports). `dedupeKey` names the occurrence: writing it twice (a redelivered job, a second finish)
 * queues one delivery. `traceParent` is the trace its deliveries continue: the active context's unless given
 * (the engine gives its span's, which the OpenTelemetry context does not hold); none when tracing is off.
 */
export async function queueDebateWebhook(
  em: EntityManager,
  event: {
    debateId: string;
    event: DebateWebhookEvent;
    dedupeKey: string;
    payload: Record<string, unknown>;
    traceParent?: string | undefined;
  },
) {
  const traceParent = event.traceParent ?? currentTraceCarrier()?.traceparent ?? null;
  await query<QueueTables>(em)
    .insertInto('webhook_outbox')
    .columns(['user_id', 'event', 'debate_id', 'dedupe_key', 'payload', 'trace_parent'])
    .expression((eb) =>
      eb
        .selectFrom('debates')
        .select([
          'owner_id',
          sql.lit(event.event).as('event'),
          'id',
          sql.val(event.dedupeKey).as('dedupe_key'),
          sql`${JSON.stringify(event.payload)}::jsonb`.as('payload'),
          sql.val(traceParent).as('trace_parent'),
        ])
        .where('id', '=', event.debateId),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

/**
 * `queueDebateWebhook` for each row of `events`, as a data-modifying CTE of the caller's statement (the
 * engine's batched finish): a relation of (user_id, event, debate_id, dedupe_key, payload, trace_parent), the
 * owner and the trace given by the caller.
 */
export const queueDebateWebhooksFrom = (events: RawBuilder<unknown>) =>
  sql`insert into webhook_outbox (user_id, event, debate_id, dedupe_key, payload, trace_parent)
      select user_id, event, debate_id, dedupe_key, payload, trace_parent from ${events} as events
      on conflict (dedupe_key) do nothing`;

/** The webhook events about something of a user's other than one debate (the spec's Webhook events). */
export type UserWebhookEvent = 'chain.created' | 'chain.updated';

/**
 * Queues a webhook event for `userId`, in the caller's transaction (the one that writes what the event
 * reports). `debateId`, when the event concerns one debate, is recorded with it. `dedupeKey` names the
 * occurrence, as for queueDebateWebhook.
 */
export async function queueUserWebhook(
  em: EntityManager,
  event: {
    userId: string;
    event: UserWebhookEvent;
    dedupeKey: string;
    payload: Record<string, unknown>;
    debateId?: string;
  },
) {
  await query<QueueTables>(em)
    .insertInto('webhook_outbox')
    .values({
      user_id: event.userId,
      event: event.event,
      debate_id: event.debateId ?? null,
      dedupe_key: event.dedupeKey,
      payload: sql`${JSON.stringify(event.payload)}::jsonb`,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}
