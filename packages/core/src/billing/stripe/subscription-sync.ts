import type { EntityManager } from '@mikro-orm/core';
import { type Plan, SubscriptionPlan, UuidInput } from '@verdict/contracts';
import { sql } from 'kysely';
import { changePlan } from '../../accounts/change-plan.ts';
import type { AccountTables } from '../../accounts/tables.ts';
import type { BillingConfig } from '../../config/config.ts';
import { query } from '../../db/kysely.ts';
import type { BillingTables } from '../tables.ts';
import type { Stripe } from './stripe-client.ts';

type Tables = BillingTables & AccountTables;

/** Statuses in which a subscription still grants its plan (past_due: the processor is still retrying). */
const GRANTING = new Set(['active', 'trialing', 'past_due']);

/** Plans that subscriptions decide; an operator-set plan (starter, pro, enterprise) is left as it is. */
const SUBSCRIPTION_OWNED = new Set<Plan>(['free', 'byok', 'byok_pro']);

/** Higher wins when an account holds two subscriptions at once. */
const RANK: Record<SubscriptionPlan, number> = { byok: 1, byok_pro: 2 };

/** The id of a Stripe reference, which the API gives as an id or, when expanded, as the object. */
export const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The plan a subscription sells: by its price (the configuration), else the plan checkout wrote on it. */
function planOfSubscription(subscription: Stripe.Subscription, prices: BillingConfig['prices']) {
  const price = subscription.items.data[0]?.price.id;
  if (price !== undefined && price === prices.byok_pro) return 'byok_pro';
  if (price !== undefined && price === prices.byok) return 'byok';
  const written = SubscriptionPlan.safeParse(subscription.metadata?.plan);
  return written.success ? written.data : null;
}

/** The account a processor object belongs to: by its customer, else by the id checkout wrote on it. */
export async function accountOf(
  em: EntityManager,
  customer: string | { id: string } | null,
  writtenUserId: string | null | undefined,
): Promise<string | null> {
  const db = query<Tables>(em);
  const customerId = idOf(customer);
  if (customerId !== null) {
    const row = await db
      .selectFrom('billing_customers')
      .select('user_id')
      .where('stripe_customer_id', '=', customerId)
      .executeTakeFirst();
    if (row) return row.user_id;
  }
  const written = UuidInput.safeParse(writtenUserId);
  if (!written.success) return null;
  const user = await db.selectFrom('users').select('id').where('id', '=', written.data).executeTakeFirst();
  return user?.id ?? null;
}

/**
 * Takes the processor's current view of a subscription (never an event's copy: events arrive late, twice,
 * or out of order, and the current state is what they converge on) into `subscriptions`, then sets the
 * account's plan from all its subscriptions. The caller holds the account's billing lock (lockAccount), so
 * two events of one account apply one after the other, each with what it read under the lock.
 */
export async function syncSubscription(
  em: EntityManager,
  subscription: Stripe.Subscription,
  account: { userId: string; prices: BillingConfig['prices']; now: Date },
): Promise<SubscriptionPlan | null> {
  const plan = planOfSubscription(subscription, account.prices);
  if (plan === null) return null;
  const periodEnd = subscription.items.data[0]?.current_period_end;
  const row = {
    stripe_subscription_id: subscription.id,
    user_id: account.userId,
    plan,
    status: subscription.status,
    cancel_at_period_end: subscription.cancel_at_period_end,
    current_period_end: periodEnd === undefined ? null : new Date(periodEnd * 1000),
    updated_at: account.now,
  };
  await query<Tables>(em)
    .insertInto('subscriptions')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('stripe_subscription_id').doUpdateSet({
        plan: row.plan,
        status: row.status,
        cancel_at_period_end: row.cancel_at_period_end,
        current_period_end: row.current_period_end,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  await applyPlan(em, account.userId, account.now);
  return plan;
}

/**
 * The account's subscriptions that still grant their plan at `now`: a granting status, and not cancelled at
 * the end of a period that is over. The processor's `customer.subscription.deleted` at the period's end is
 * what normally ends one; the period check covers an event that comes after the end.
 */
export async function grantingSubscriptions(
  em: EntityManager,
  userId: string,
  now: Date,
): Promise<{ plan: SubscriptionPlan; stripeSubscriptionId: string }[]> {
  const subscriptions = await query<Tables>(em)
    .selectFrom('subscriptions')
    .select(['stripe_subscription_id', 'plan', 'status', 'cancel_at_period_end', 'current_period_end'])
    .where('user_id', '=', userId)
    .orderBy('stripe_subscription_id')
    .execute();
  return subscriptions
    .filter((subscription) => {
      const ended =
        subscription.cancel_at_period_end &&
        subscription.current_period_end !== null &&
        new Date(subscription.current_period_end) <= now;
      return GRANTING.has(subscription.status) && !ended;
    })
    .map((subscription) => ({
      plan: subscription.plan,
      stripeSubscriptionId: subscription.stripe_subscription_id,
    }));
}

/** Whether subscriptions decide the plan (free, byok, byok_pro), rather than an operator (starter, pro, enterprise). */
export const isSubscriptionOwned = (plan: Plan): boolean => SUBSCRIPTION_OWNED.has(plan);

/** The account's plan from its subscriptions: the best one that still grants, else free. */
async function applyPlan(em: EntityManager, userId: string, now: Date) {
  const db = query<Tables>(em);
  const user = await db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
  if (!user || !SUBSCRIPTION_OWNED.has(user.plan)) return;
  let plan: Plan = 'free';
  for (const subscription of await grantingSubscriptions(em, userId, now)) {
    if (plan === 'free' || RANK[subscription.plan] > RANK[plan as SubscriptionPlan]) plan = subscription.plan;
  }
  if (plan !== user.plan) await changePlan(em, { now: () => now.getTime() }, userId, plan);
}

/**
 * Serialises the billing events of one account until the transaction ends: a transaction-scoped advisory
 * lock rather than the users row, because the holder may wait on a Stripe read, and debate creation (which
 * locks the users row) must not wait with it.
 */
export async function lockAccount(em: EntityManager, userId: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${`billing:${userId}`}))`.execute(query<Tables>(em));
}
