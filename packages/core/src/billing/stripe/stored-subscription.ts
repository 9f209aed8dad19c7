import type { EntityManager } from '@mikro-orm/core';
import type { BillingConfig } from '../../config/config.ts';
import { workspaceOf } from './payment-records.ts';
import { callStripe, type Stripe } from './stripe-client.ts';
import type { StripeResources } from './stripe-resources.ts';
import { lockAccount, syncSubscription } from './subscription-sync.ts';

/** The subscription as the processor has it now. */
export const retrieveSubscription = (client: Stripe, subscriptionId: string) =>
  callStripe(() => client.subscriptions.retrieve(subscriptionId));

/** Stores a subscription as read from the processor (outside any transaction) and sets the plan from it. */
export async function storeSubscription(
  em: EntityManager,
  subscription: Stripe.Subscription,
  account: { userId: string; prices: BillingConfig['prices']; now: Date },
) {
  const plan = await syncSubscription(em, subscription, account);
  return { plan, workspaceId: workspaceOf(subscription.metadata) };
}

/**
 * After the event's transaction: the subscription read again and stored again. Two events of one account
 * read before their transactions may commit in the opposite order of their reads; the later of these second
 * writes carries a read taken after both commits, so the account ends in the processor's current state.
 */
export async function settleSubscription(
  { db, clock, billing }: StripeResources,
  client: Stripe,
  subscriptionId: string,
  userId: string,
) {
  const current = await retrieveSubscription(client, subscriptionId);
  await db.em().transactional(async (em) => {
    await lockAccount(em, userId);
    await storeSubscription(em, current, { userId, prices: billing.prices, now: new Date(clock.now()) });
  });
}
