import { defineEntity, p } from '@mikro-orm/core';

/**
 * Every payment-processor event handled, written in the transaction of its effect: a replayed event finds
 * its id here and changes nothing.
 */
export const StripeEventSchema = defineEntity({
  name: 'StripeEvent',
  tableName: 'stripe_events',
  properties: {
    id: p.string().length(255).primary(),
    type: p.string().length(100),
    processedAt: p.datetime().defaultRaw('now()'),
  },
});

export class StripeEvent extends StripeEventSchema.class {}
StripeEventSchema.setClass(StripeEvent);
