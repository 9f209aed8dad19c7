import type { EntityManager } from '@mikro-orm/core';
import type { BillingConfig } from '../../config/config.ts';
import { recordPackPurchase, recordSubscriptionInvoice } from './payment-records.ts';
import { storeSubscription } from './stored-subscription.ts';
import type { Stripe } from './stripe-client.ts';
import { accountOf, idOf, lockAccount } from './subscription-sync.ts';

/** The subscription an event is about, which is read back from the processor; null for other events. */
export function subscriptionOf(event: Stripe.Event): string | null {
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

/** Applies the event with the subscription it names as read beforehand; returns the account it touched. */
export async function applyEvent(
  em: EntityManager,
  event: Stripe.Event,
  subscription: Stripe.Subscription | null,
  { prices, now }: { prices: BillingConfig['prices']; now: Date },
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
      if (subscription !== null) await storeSubscription(em, subscription, { userId, prices, now });
      return userId;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const named = event.data.object;
      const userId = await accountOf(em, named.customer, named.metadata?.userId);
      if (userId === null || subscription === null) return null;
      await lockAccount(em, userId);
      await storeSubscription(em, subscription, { userId, prices, now });
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
      const { plan, workspaceId } = await storeSubscription(em, subscription, { userId, prices, now });
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
