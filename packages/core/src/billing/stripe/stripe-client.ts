import Stripe from 'stripe';
import type { BillingConfig } from '../../config/config.ts';
import { AppError } from '../../shared/app-error.ts';

export type { Stripe };

/**
 * The official SDK on the configured key, or null without one. STRIPE_API_URL points it elsewhere (a local
 * fake). One network retry: the SDK reuses the idempotency key on it, and a caller is waiting.
 */
export function stripeClientOf(config: BillingConfig): Stripe | null {
  if (config.secretKey === null) return null;
  return new Stripe(config.secretKey, {
    ...(config.api ?? {}),
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  });
}

/** The processor refusing or not answering is the service's dependency failing: 503, never its internals. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The payment processor did not answer; try again shortly', {
        cause: error,
      });
    }
    throw error;
  }
}

export const notConfigured = (what: string) =>
  new AppError('BILLING_NOT_CONFIGURED', `Billing is not configured on this server (${what})`);
