import { type AuditActor, auditContext, withAuditContext } from '../../audit/audit-context.ts';
import { receiveEvent } from './receive-event.ts';
import { type StripeResources, withStripe } from './stripe-resources.ts';

export type { WebhookReceipt } from './receive-event.ts';

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>;

/**
 * The processor's events: verified against the raw bytes with the SDK, then applied in one transaction with
 * the event's id recorded in `stripe_events`, so a replay (the processor retries until it gets a 2xx)
 * changes nothing. Subscriptions are read back from the processor rather than taken from the event, so
 * events applied in any order end in the processor's current state: read before the transaction (no call
 * to the processor with a transaction open), then read and stored once more after it
 * (`settleSubscription`). Types not listed are acknowledged and ignored. A failure (the processor not
 * answering a read) is a 5xx: nothing is recorded and the processor delivers the event again. The steps
 * are receive-event.ts's, on one client of the processor made here.
 */
export function createStripeWebhooks(resources: StripeResources) {
  const receive = receiveEvent(withStripe(resources));
  return {
    // What an event changes (a plan, credits paid for) is the processor's doing, from the request it sent.
    receive: (body: Buffer, signature: string | undefined) =>
      withAuditContext({ actor: STRIPE, origin: auditContext().origin }, () => receive(body, signature)),
  };
}

const STRIPE: AuditActor = { kind: 'system', source: 'stripe' };
