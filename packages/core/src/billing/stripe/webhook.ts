import type { EntityManager } from '@mikro-orm/core';
import type { BillingConfig } from '../../config/config.ts';
import { query } from '../../db/kysely.ts';
import type { Database } from '../../db/orm.ts';
import { AppError } from '../../shared/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import type { BillingTables } from '../tables.ts';
import { recordPackPurchase, recordSubscriptionInvoice, workspaceOf } from './payment-records.ts';
import { callStripe, notConfigured, type Stripe, stripeClientOf } from './stripe-client.ts';
import { accountOf, idOf, lockAccount, syncSubscription } from './subscription-sync.ts';

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>;

/** What the webhook answers: `duplicate` when the event was handled before and nothing changed now. */
export type WebhookReceipt = { received: true; duplicate: boolean };

/**
 * The processor's events: verified against the raw bytes with the SDK, then applied in one transaction with
 * the event's id recorded in `stripe_events`, so a replay (the processor retries until it gets a 2xx)
 * changes nothing. Subscriptions are read back from the processor rather than taken from the event, so
 * events applied in any order end in the processor's current state. Types not listed are acknowledged and
 * ignored. A failure (the processor not answering a read) is a 5xx: nothing is recorded and the processor
 * delivers the event again.
 */
export function createStripeWebhooks(db: Database, clock: Clock, config: BillingConfig) {
  const stripe = stripeClientOf(config);

  const verify = (client: Stripe, secret: string, body: Buffer, signature: string | undefined) => {
    try {
      return client.webhooks.constructEvent(
        body,
        signature ?? '',
        secret,
        undefined,
        undefined,
        // The signature's age (five minutes at most) is measured on the service's clock, in milliseconds.
        clock.now(),
      );
    } catch (error) {
      throw new AppError('VALIDATION_ERROR', 'The Stripe-Signature header does not match the body', {
        details: [
          { path: 'Stripe-Signature', message: 'missing or invalid signature', code: 'invalid_signature' },
        ],
        cause: error,
      });
    }
  };

  /** Records the event; false when it was recorded before (a replay). */
  const firstDelivery = async (em: EntityManager, event: Stripe.Event, now: Date) =>
    (await query<BillingTables>(em)
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type, processed_at: now })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()) !== undefined;

  const syncFromProcessor = async (
    client: Stripe,
    em: EntityManager,
    subscriptionId: string,
    userId: string,
    now: Date,
  ) => {
    const subscription = await callStripe(() => client.subscriptions.retrieve(subscriptionId));
    const plan = await syncSubscription(em, subscription, { userId, prices: config.prices, now });
    return { plan, workspaceId: workspaceOf(subscription.metadata) };
  };

  async function apply(client: Stripe, em: EntityManager, event: Stripe.Event, now: Date) {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        const userId = await accountOf(
          em,
          session.customer,
          session.client_reference_id ?? session.metadata?.userId,
        );
        if (userId === null) return;
        await lockAccount(em, userId);
        if (session.mode === 'payment') await recordPackPurchase(em, session, userId, now);
        const subscriptionId = idOf(session.subscription);
        if (session.mode === 'subscription' && subscriptionId !== null) {
          await syncFromProcessor(client, em, subscriptionId, userId, now);
        }
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const userId = await accountOf(em, subscription.customer, subscription.metadata?.userId);
        if (userId === null) return;
        await lockAccount(em, userId);
        await syncFromProcessor(client, em, subscription.id, userId, now);
        return;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const details = invoice.parent?.subscription_details ?? null;
        const subscriptionId = idOf(details?.subscription);
        if (subscriptionId === null) return;
        const userId = await accountOf(em, invoice.customer, details?.metadata?.userId);
        if (userId === null) return;
        await lockAccount(em, userId);
        // Also applies the plan, so an invoice paid before its checkout's completion arrives sets it.
        const { plan, workspaceId } = await syncFromProcessor(client, em, subscriptionId, userId, now);
        if (plan === null) return;
        await recordSubscriptionInvoice(em, invoice, {
          userId,
          plan,
          workspaceId,
          paid: event.type === 'invoice.paid',
          now,
        });
        return;
      }
      default:
        return;
    }
  }

  return {
    /** Verifies and applies one delivery; throws 400 VALIDATION_ERROR for a bad signature. */
    receive: async (body: Buffer, signature: string | undefined): Promise<WebhookReceipt> => {
      if (config.webhookSecret === null) throw notConfigured('no webhook secret');
      if (stripe === null) throw notConfigured('no secret key');
      const event = verify(stripe, config.webhookSecret, body, signature);
      const now = new Date(clock.now());
      return db.em().transactional(async (em) => {
        if (!(await firstDelivery(em, event, now))) return { received: true, duplicate: true } as const;
        await apply(stripe, em, event, now);
        return { received: true, duplicate: false } as const;
      });
    },
  };
}
