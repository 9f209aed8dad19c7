import { AppError } from '../../shared/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { applyEvent, subscriptionOf } from './apply-event.ts';
import { firstDelivery, handledBefore } from './event-record.ts';
import { retrieveSubscription, settleSubscription } from './stored-subscription.ts';
import { notConfigured, type Stripe } from './stripe-client.ts';
import type { WithStripe } from './stripe-resources.ts';

/** What the webhook answers: `duplicate` when the event was handled before and nothing changed now. */
export type WebhookReceipt = { received: true; duplicate: boolean };

/** Verifies and applies one delivery; throws 400 VALIDATION_ERROR for a bad signature. */
export const receiveEvent =
  (resources: WithStripe) =>
  async (body: Buffer, signature: string | undefined): Promise<WebhookReceipt> => {
    const { db, clock, billing } = resources;
    if (billing.webhookSecret === null) throw notConfigured('no webhook secret');
    const stripe = await resources.stripe();
    if (stripe === null) throw notConfigured('no secret key');
    const event = verify(clock, stripe, billing.webhookSecret, body, signature);
    const now = new Date(clock.now());
    if (await handledBefore(db, event.id)) return { received: true, duplicate: true };
    // Read before the transaction: no call to the processor is made with a transaction open.
    const subscriptionId = subscriptionOf(event);
    const subscription = subscriptionId === null ? null : await retrieveSubscription(stripe, subscriptionId);
    const applied = await db.em().transactional(async (em) => {
      if (!(await firstDelivery(em, event, now))) return { duplicate: true, userId: null } as const;
      const userId = await applyEvent(em, event, subscription, { prices: billing.prices, now });
      return { duplicate: false, userId } as const;
    });
    if (subscriptionId !== null && applied.userId !== null) {
      await settleSubscription(resources, stripe, subscriptionId, applied.userId);
    }
    return { received: true, duplicate: applied.duplicate };
  };

/** The event the body carries, if the Stripe-Signature header was made for these bytes with the secret. */
function verify(clock: Clock, client: Stripe, secret: string, body: Buffer, signature: string | undefined) {
  try {
    return client.webhooks.constructEvent(
      body,
      signature ?? '',
      secret,
      undefined,
      undefined,
      // The signature's age (five minutes at most) is measured on the service's clock, in milliseconds.
      clock.now(),
    );
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', 'The Stripe-Signature header does not match the body', {
      details: [
        { path: 'Stripe-Signature', message: 'missing or invalid signature', code: 'invalid_signature' },
      ],
      cause: error,
    });
  }
}
