import type Stripe from 'stripe';
import type { BillingConfig } from '../../config/config.ts';
import { AppError } from '../../shared/app-error.ts';

export type { Stripe };

/**
 * The SDK, loaded at its first use: about 200 modules, which a process that never calls the processor
 * (most of them: engine nodes, operator commands, a server without billing) does not load at start
 * (BENCHMARKS.md, "The test suite's time").
 */
let sdk: Promise<typeof import('stripe')> | null = null;
const loadSdk = () => {
  sdk ??= import('stripe');
  return sdk;
};

/** The processor's client of a feature, made at its first call; null without a secret key. */
export type StripeClient = () => Promise<Stripe | null>;

/**
 * The official SDK on the configured key (null without one), made at the first call and kept. STRIPE_API_URL
 * points it elsewhere (a local fake). One network retry: the SDK reuses the idempotency key on it, and a
 * caller is waiting.
 */
export function stripeClientOf(config: BillingConfig): StripeClient {
  const { secretKey } = config;
  if (secretKey === null) return async () => null;
  let client: Promise<Stripe> | null = null;
  return () => {
    client ??= loadSdk().then(
      ({ default: StripeSdk }) =>
        new StripeSdk(secretKey, {
          ...(config.api ?? {}),
          maxNetworkRetries: 1,
          timeout: 10_000,
          telemetry: false,
        }),
    );
    return client;
  };
}

/** The processor refusing or not answering is the service's dependency failing: 503, never its internals. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Loaded already: the call was made with one of its clients.
    const { default: StripeSdk } = await loadSdk();
    if (error instanceof StripeSdk.errors.StripeError) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The payment processor did not answer; try again shortly', {
        cause: error,
      });
    }
    throw error;
  }
}

export const notConfigured = (what: string) =>
  new AppError('BILLING_NOT_CONFIGURED', `Billing is not configured on this server (${what})`);
