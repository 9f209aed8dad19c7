import type { Database } from '../../db/orm.ts';
import { AppError } from '../../shared/app-error.ts';
import { callStripe, type Stripe } from '../stripe/stripe-client.ts';
import { type CheckoutResources, checkoutQuery } from './checkout-resources.ts';

/** The account's customer at the processor, if it has one yet. */
export const customerOf = async (db: Database, userId: string) =>
  (
    await checkoutQuery(db.em())
      .selectFrom('billing_customers')
      .select('stripe_customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )?.stripe_customer_id ?? null;

/**
 * The account's customer at the processor, made with its first checkout (which needs one) and kept even
 * if that checkout is abandoned; made once: two parallel first purchases send the same idempotency key, so the
 * processor answers both with one customer, and the row insert ignores the second.
 */
export async function ensureCustomer(
  { db, clock }: Pick<CheckoutResources, 'db' | 'clock'>,
  client: Stripe,
  userId: string,
): Promise<string> {
  const known = await customerOf(db, userId);
  if (known !== null) return known;
  const account = await checkoutQuery(db.em())
    .selectFrom('users')
    .select(['email', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!account) throw new AppError('USER_NOT_FOUND', 'User not found');
  const customer = await callStripe(() =>
    client.customers.create(
      { email: account.email, name: account.name, metadata: { userId } },
      { idempotencyKey: `verdict-customer-${userId}` },
    ),
  );
  await checkoutQuery(db.em())
    .insertInto('billing_customers')
    .values({ user_id: userId, stripe_customer_id: customer.id, created_at: new Date(clock.now()) })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
  return (await customerOf(db, userId)) ?? customer.id;
}
