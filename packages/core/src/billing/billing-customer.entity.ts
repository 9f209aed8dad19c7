import { defineEntity, p } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.ts';

/** The payment processor's customer of an account, made on its first purchase; one per account. */
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
