import type { HostedPage } from '@verdict/contracts';
import type { Database } from '../../db/orm.ts';
import { AppError } from '../../shared/app-error.ts';
import { callStripe, notConfigured } from '../stripe/stripe-client.ts';
import { type CheckoutRun, checkoutQuery, hosted } from './checkout-resources.ts';
import { customerOf } from './customer.ts';

/**
 * The processor's customer portal; only for an account with a completed purchase (checked first): a
 * checkout opened and abandoned made a customer at the processor, but bought nothing.
 */
export const portal =
  ({ db, stripe, appUrl }: CheckoutRun) =>
  async (userId: string): Promise<HostedPage> => {
    const customer = await customerOf(db, userId);
    if (customer === null || !(await hasPurchased(db, userId))) {
      throw new AppError('NO_PAYMENT_CUSTOMER', 'No purchase yet, so there is no billing portal');
    }
    const client = await stripe();
    if (client === null) throw notConfigured('no secret key');
    const session = await callStripe(() =>
      client.billingPortal.sessions.create({ customer, return_url: `${appUrl}/billing` }),
    );
    return hosted(session.url);
  };

/** A paid pack or a subscription (any invoice, or a subscription the processor reported): a customer. */
async function hasPurchased(db: Database, userId: string) {
  const k = checkoutQuery(db.em());
  const [invoice, subscription] = await Promise.all([
    k.selectFrom('invoices').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
    k
      .selectFrom('subscriptions')
      .select('stripe_subscription_id')
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst(),
  ]);
  return invoice !== undefined || subscription !== undefined;
}
