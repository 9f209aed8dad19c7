import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/**
 * The payment processor's customer of an account, made when it opens its first checkout (the session needs
 * one); one per account. Having one is not having bought anything: the portal also asks for a purchase.
 */
export const BillingCustomerSchema = defineEntity({
  name: 'BillingCustomer',
  tableName: 'billing_customers',
  properties: {
    // A key that is only a foreign key gets `on update cascade` by default; ids never change.
    user: () => p.manyToOne(User).primary().deleteRule('cascade').updateRule('no action'),
    stripeCustomerId: p.string().length(255).unique(),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});

export class BillingCustomer extends BillingCustomerSchema.class {}
BillingCustomerSchema.setClass(BillingCustomer);
