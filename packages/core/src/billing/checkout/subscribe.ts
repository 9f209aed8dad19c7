import { type HostedPage, PLAN_NAMES, type SubscriptionPlan } from '@verdict/contracts';
import { AppError } from '../../shared/app-error.ts';
import { assertPaysFor } from '../../workspaces/assert-pays-for.ts';
import { callStripe } from '../stripe/stripe-client.ts';
import { grantingSubscriptions, isSubscriptionOwned } from '../stripe/subscription-sync.ts';
import { type CheckoutRun, checkoutQuery, configured, forWorkspace, hosted } from './checkout-resources.ts';
import { ensureCustomer } from './customer.ts';

/**
 * A monthly subscription to a BYOK plan; 409 CONFLICT while the account has one that grants its plan,
 * or is on a plan an operator set. `workspaceId`: the workspace it pays for, which only its owner may buy for (assert-pays-for.ts).
 */
export const subscribe =
  (resources: CheckoutRun) =>
  async (userId: string, plan: SubscriptionPlan, workspaceId: string | null = null): Promise<HostedPage> => {
    if (workspaceId) await assertPaysFor(resources.db.em(), userId, workspaceId);
    const { billing, appUrl } = resources;
    const { stripe: client, price } = configured(await resources.stripe(), billing.prices[plan], plan);
    await assertMaySubscribe(resources, userId);
    const customer = await ensureCustomer(resources, client, userId);
    const metadata = { userId, plan, ...forWorkspace(workspaceId) };
    const session = await callStripe(() =>
      client.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: userId,
        line_items: [{ price, quantity: 1 }],
        metadata,
        subscription_data: { metadata },
        success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${appUrl}/billing`,
      }),
    );
    return hosted(session.url);
  };

/**
 * One subscription per account: a second would bill twice for one plan (changing plans is the portal's
 * job), and a plan an operator set (starter, pro, enterprise) is not one a subscription can change.
 */
async function assertMaySubscribe({ db, clock }: CheckoutRun, userId: string) {
  const em = db.em();
  const user = await checkoutQuery(em)
    .selectFrom('users')
    .select('plan')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
  if (!isSubscriptionOwned(user.plan)) {
    throw new AppError(
      'CONFLICT',
      `This account is on the ${PLAN_NAMES[user.plan]} plan, set by the operator; a subscription would not change it`,
    );
  }
  if ((await grantingSubscriptions(em, userId, new Date(clock.now()))).length > 0) {
    throw new AppError(
      'CONFLICT',
      'This account already has an active subscription; change or cancel it in the billing portal ' +
        '(POST /api/billing/portal-session)',
    );
  }
}
