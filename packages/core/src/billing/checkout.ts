import { buyCredits } from './checkout/buy-credits.ts';
import type { CheckoutResources } from './checkout/checkout-resources.ts';
import { portal } from './checkout/portal.ts';
import { subscribe } from './checkout/subscribe.ts';
import { withStripe } from './stripe/stripe-resources.ts';

export type Checkout = ReturnType<typeof createCheckout>;

/**
 * Hosted checkout and portal pages. The account's customer is made at the processor on its first checkout
 * and remembered; the session names the account (client_reference_id and metadata), for a pack its credits,
 * and the workspace a purchase is for (the caller owns it: checked first), so the webhook knows
 * what was paid for without trusting the browser. One operation a file under checkout/, on one client of
 * the processor made here.
 */
export function createCheckout(resources: CheckoutResources) {
  const run = withStripe(resources);
  return {
    subscribe: subscribe(run),
    buyCredits: buyCredits(run),
    portal: portal(run),
  };
}
