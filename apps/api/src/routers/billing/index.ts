import { router } from '../../trpc/init.ts';
import { billingBalance } from './balance.ts';
import { checkoutSession } from './checkout-session.ts';
import { checkoutSessionPro } from './checkout-session-pro.ts';
import { creditCheckout } from './credit-checkout.ts';
import { getInvoice } from './get-invoice.ts';
import { listInvoices } from './list-invoices.ts';
import { portalSession } from './portal-session.ts';

export const billingRouter = router({
  checkoutSession,
  checkoutSessionPro,
  creditCheckout,
  portalSession,
  balance: billingBalance,
  listInvoices,
  getInvoice,
});
