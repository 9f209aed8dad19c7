import type { EntityManager } from '@mikro-orm/core';
import { sql } from 'kysely';
import { query } from '../db/kysely.ts';
import type { DebateTables } from '../debates/tables.ts';
import type { WebhookTables } from './tables.ts';

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
 * queues one delivery.
 */
export async function queueDebateWebhook(
  em: EntityManager,
  event: { debateId: string; event: DebateWebhookEvent; dedupeKey: string; payload: Record<string, unknown> },
) {
  await query<WebhookTables & DebateTables>(em)
    .insertInto('webhook_outbox')
    .columns(['user_id', 'event', 'debate_id', 'dedupe_key', 'payload'])
    .expression((eb) =>
      eb
        .selectFrom('debates')
        .select([
          'owner_id',
          sql.lit(event.event).as('event'),
          'id',
          sql.val(event.dedupeKey).as('dedupe_key'),
          sql`${JSON.stringify(event.payload)}::jsonb`.as('payload'),
        ])
        .where('id', '=', event.debateId),
    )
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}
