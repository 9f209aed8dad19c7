import type { BillingConfig } from '../../config/config.ts';
import type { CoreResources } from '../../resources.ts';
import { type StripeClient, stripeClientOf } from './stripe-client.ts';

/** What the processor's features (checkout, its webhook) are given: database, clock, billing's settings. */
export type StripeResources = Pick<CoreResources, 'db' | 'clock'> & { billing: BillingConfig };

/**
 * What their operations run on: those and the processor's client, made once by the feature from the settings
 * at its first call (`await stripe()`); null without a secret key (each operation then answers 503
 * BILLING_NOT_CONFIGURED).
 */
export type WithStripe<R extends StripeResources = StripeResources> = R & { stripe: StripeClient };

export const withStripe = <R extends StripeResources>(resources: R): WithStripe<R> => ({
  ...resources,
  stripe: stripeClientOf(resources.billing),
});
