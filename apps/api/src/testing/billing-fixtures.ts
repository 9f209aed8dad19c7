import { type FakeStripe, signStripePayload, stripeEvent } from '@verdict/core/testing';
import type { Harness, HttpResult } from './http-harness.ts';

export const WEBHOOK_SECRET = 'whsec_test_verdict_billing';

export const PRICES = {
  byok: 'price_byok_monthly',
  byok_pro: 'price_byok_pro_monthly',
  credits_100: 'price_credits_100',
  credits_500: 'price_credits_500',
  credits_2000: 'price_credits_2000',
} as const;

/** Cents of each price, as the fake processor charges them (the spec's list prices). */
export const PRICE_AMOUNTS: Record<string, number> = {
  [PRICES.byok]: 1900,
  [PRICES.byok_pro]: 3900,
  [PRICES.credits_100]: 499,
  [PRICES.credits_500]: 1999,
  [PRICES.credits_2000]: 5999,
};

/** The environment of a server whose billing talks to `fake`. */
export const billingEnv = (fake: { url: string }): Record<string, string> => ({
  STRIPE_SECRET_KEY: 'sk_test_verdict',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
  STRIPE_PRICE_BYOK: PRICES.byok,
  STRIPE_PRICE_BYOK_PRO: PRICES.byok_pro,
  STRIPE_PRICE_CREDITS_100: PRICES.credits_100,
  STRIPE_PRICE_CREDITS_500: PRICES.credits_500,
  STRIPE_PRICE_CREDITS_2000: PRICES.credits_2000,
});

export type StripeEventPayload = ReturnType<typeof stripeEvent>;

/** Posts an event to the webhook as Stripe does: the JSON text, signed by the SDK's test helper. */
export function deliver(
  h: Pick<Harness, 'request'>,
  event: StripeEventPayload,
  secret = WEBHOOK_SECRET,
): Promise<HttpResult<{ received: boolean; duplicate: boolean }>> {
  const payload = JSON.stringify(event);
  return h.request('POST', '/api/billing/webhook', {
    rawBody: payload,
    headers: { 'stripe-signature': signStripePayload(payload, secret) },
  });
}

/** A checkout the customer has paid: the session as checkout.session.completed carries it. */
export function paidCheckout(fake: FakeStripe, hostedUrl: string) {
  return fake.completeCheckout(fake.sessionIdOf(hostedUrl));
}

export { stripeEvent };
