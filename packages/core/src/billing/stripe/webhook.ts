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

/** The subscription an event is about, which is read back from the processor; null for other events. */
function subscriptionOf(event: Stripe.Event): string | null {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return event.data.object.mode === 'subscription' ? idOf(event.data.object.subscription) : null;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return idOf(event.data.object.parent?.subscription_details?.subscription);
    default:
      return null;
  }
}

/** What the webhook answers: `duplicate` when the event was handled before and nothing changed now. */
export type WebhookReceipt = { received: true; duplicate: boolean };

/**
 * The processor's events: verified against the raw bytes with the SDK, then applied in one transaction with
 * the event's id recorded in `stripe_events`, so a replay (the processor retries until it gets a 2xx)
 * changes nothing. Subscriptions are read back from the processor rather than taken from the event, so
 * events applied in any order end in the processor's current state: read before the transaction (no call
 * to the processor with a transaction open), then read and stored once more after it (`settle`). Types not
 * listed are acknowledged and ignored. A failure (the processor not answering a read) is a 5xx: nothing is
 * recorded and the processor delivers the event again.
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

  /** A replay of an event handled before answers without asking the processor anything. */
  const handledBefore = async (eventId: string) =>
    (await query<BillingTables>(db.em())
      .selectFrom('stripe_events')
      .select('id')
      .where('id', '=', eventId)
      .executeTakeFirst()) !== undefined;

  /** Records the event; false when it was recorded before (a replay racing this one). */
  const firstDelivery = async (em: EntityManager, event: Stripe.Event, now: Date) =>
    (await query<BillingTables>(em)
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type, processed_at: now })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()) !== undefined;

  const retrieve = (client: Stripe, subscriptionId: string) =>
    callStripe(() => client.subscriptions.retrieve(subscriptionId));

  /** Stores a subscription as read from the processor (outside any transaction) and sets the plan from it. */
  const storeSubscription = async (
    em: EntityManager,
    subscription: Stripe.Subscription,
    userId: string,
    now: Date,
  ) => {
    const plan = await syncSubscription(em, subscription, { userId, prices: config.prices, now });
    return { plan, workspaceId: workspaceOf(subscription.metadata) };
  };

  /** Applies the event with the subscription it names as read beforehand; returns the account it touched. */
  async function apply(
    em: EntityManager,
    event: Stripe.Event,
    subscription: Stripe.Subscription | null,
    now: Date,
  ): Promise<string | null> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        const userId = await accountOf(
          em,
          session.customer,
          session.client_reference_id ?? session.metadata?.userId,
        );
        if (userId === null) return null;
        await lockAccount(em, userId);
        if (session.mode === 'payment') await recordPackPurchase(em, session, userId, now);
        if (subscription !== null) await storeSubscription(em, subscription, userId, now);
        return userId;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const named = event.data.object;
        const userId = await accountOf(em, named.customer, named.metadata?.userId);
        if (userId === null || subscription === null) return null;
        await lockAccount(em, userId);
        await storeSubscription(em, subscription, userId, now);
        return userId;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const details = invoice.parent?.subscription_details ?? null;
        if (subscription === null) return null;
        const userId = await accountOf(em, invoice.customer, details?.metadata?.userId);
        if (userId === null) return null;
        await lockAccount(em, userId);
        // Also applies the plan, so an invoice paid before its checkout's completion arrives sets it.
        const { plan, workspaceId } = await storeSubscription(em, subscription, userId, now);
        if (plan === null) return userId;
        await recordSubscriptionInvoice(em, invoice, {
          userId,
          plan,
          workspaceId,
          paid: event.type === 'invoice.paid',
          now,
        });
        return userId;
      }
      default:
        return null;
    }
  }

  /**
   * After the event's transaction: the subscription read again and stored again. Two events of one account
   * read before their transactions may commit in the opposite order of their reads; the later of these second
   * writes carries a read taken after both commits, so the account ends in the processor's current state.
   */
  const settle = async (client: Stripe, subscriptionId: string, userId: string) => {
    const current = await retrieve(client, subscriptionId);
    await db.em().transactional(async (em) => {
      await lockAccount(em, userId);
      await storeSubscription(em, current, userId, new Date(clock.now()));
    });
  };

  return {
    /** Verifies and applies one delivery; throws 400 VALIDATION_ERROR for a bad signature. */
    receive: async (body: Buffer, signature: string | undefined): Promise<WebhookReceipt> => {
      if (config.webhookSecret === null) throw notConfigured('no webhook secret');
      if (stripe === null) throw notConfigured('no secret key');
      const event = verify(stripe, config.webhookSecret, body, signature);
      const now = new Date(clock.now());
      if (await handledBefore(event.id)) return { received: true, duplicate: true };
      // Read before the transaction: no call to the processor is made with a transaction open.
      const subscriptionId = subscriptionOf(event);
      const subscription = subscriptionId === null ? null : await retrieve(stripe, subscriptionId);
      const applied = await db.em().transactional(async (em) => {
        if (!(await firstDelivery(em, event, now))) return { duplicate: true, userId: null } as const;
        return { duplicate: false, userId: await apply(em, event, subscription, now) } as const;
      });
      if (subscriptionId !== null && applied.userId !== null) {
        await settle(stripe, subscriptionId, applied.userId);
      }
      return { received: true, duplicate: applied.duplicate };
    },
  };
}
