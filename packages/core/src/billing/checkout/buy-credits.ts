import { CREDIT_PACKS, type CreditPack, type HostedPage } from '@verdict/contracts';
import { assertPaysFor } from '../../workspaces/assert-pays-for.ts';
import { callStripe } from '../stripe/stripe-client.ts';
import { type CheckoutRun, configured, forWorkspace, hosted } from './checkout-resources.ts';
import { ensureCustomer } from './customer.ts';

/**
 * A one-time credit pack; its credits are added to the caller's balance when the processor confirms the
 * payment. `workspaceId`: the workspace it is bought for, which only its owner may buy for (assert-pays-for.ts); the credits are the
 * owner's either way, and pay for that workspace's debates as for their own.
 */
export const buyCredits =
  (resources: CheckoutRun) =>
  async (userId: string, pack: CreditPack, workspaceId: string | null = null): Promise<HostedPage> => {
    if (workspaceId) await assertPaysFor(resources.db.em(), userId, workspaceId);
    const { billing, appUrl } = resources;
    const { stripe: client, price } = configured(await resources.stripe(), billing.prices[pack], pack);
    const customer = await ensureCustomer(resources, client, userId);
    const credits = CREDIT_PACKS[pack];
    const session = await callStripe(() =>
      client.checkout.sessions.create({
        mode: 'payment',
        customer,
        client_reference_id: userId,
        line_items: [{ price, quantity: 1 }],
        metadata: {
          userId,
          creditPack: pack,
          creditAmount: String(credits),
          ...forWorkspace(workspaceId),
        },
        payment_intent_data: { metadata: { userId, creditPack: pack } },
        success_url: `${appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${appUrl}/billing`,
      }),
    );
    return hosted(session.url);
  };
