import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/**
 * A webhook event waiting for delivery, written in the same transaction as what it reports (a debate's
 * final state …). The dedupe key makes a second write of the same occurrence a no-op.
 */
export const WebhookOutboxEntrySchema = defineEntity({
  name: 'WebhookOutboxEntry',
  tableName: 'webhook_outbox',
  indexes: [
    { name: 'webhook_outbox_created_index', properties: ['createdAt'] },
    {
      name: 'webhook_outbox_pending_index',
      expression: `create index "webhook_outbox_pending_index" on "webhook_outbox" ("created_at") where "dispatched_at" is null`,
    },
    {
      name: 'webhook_outbox_unscored_index',
      expression: `create index "webhook_outbox_unscored_index" on "webhook_outbox" ("created_at") where "scored_at" is null and "event" in ('debate.completed', 'outcome.recorded', 'outcome.updated')`,
    },
    {
      name: 'webhook_outbox_unembedded_index',
      expression: `create index "webhook_outbox_unembedded_index" on "webhook_outbox" ("created_at") where "embedded_at" is null and "event" = 'debate.completed'`,
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    event: p.string().length(50),
    debateId: p.uuid().nullable(),
    dedupeKey: p.string().length(200).unique(),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
    dispatchedAt: p.datetime().nullable(),
    /** When the score worker took this outcome event into its owner's score (outcome events only). */
    scoredAt: p.datetime().nullable(),
    /** When the embedding worker was done with this completed debate: embedded, or given up on. */
    embeddedAt: p.datetime().nullable(),
    /** When the embedding worker may claim this row (again): the end of a claim or of a back-off. */
    embedDueAt: p.datetime().nullable(),
    /** Embedding calls made for this row, the one in progress included. */
    embedAttempts: p.smallint().default(0),
  },
});

export class WebhookOutboxEntry extends WebhookOutboxEntrySchema.class {}
WebhookOutboxEntrySchema.setClass(WebhookOutboxEntry);
