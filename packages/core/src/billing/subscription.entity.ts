import { defineEntity, p } from '@mikro-orm/core';
import type { SubscriptionPlan } from '@verdict/contracts';
import { User } from '../accounts/user.entity.ts';

/**
 * An account's subscription as the payment processor last described it (read from the processor itself,
 * never from an event's copy, so events arriving out of order converge). The account's plan follows from
 * its subscriptions that still grant one.
 */
export const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    stripeSubscriptionId: p.string().length(255).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    plan: p.string().$type<SubscriptionPlan>().length(20),
    /** The processor's status: active, trialing, past_due, canceled, unpaid, incomplete … */
    status: p.string().length(30),
    cancelAtPeriodEnd: p.boolean().default(false),
    currentPeriodEnd: p.datetime().nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  },
});

export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
