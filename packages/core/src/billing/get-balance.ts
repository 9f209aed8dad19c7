import type { BillingBalance } from '@verdict/contracts';
import { AppError } from '../shared/app-error.ts';
import { type InvoiceResources, invoiceQuery } from './invoice-resources.ts';

/** The balance and plan as stored this instant (credits land when the processor confirms a payment). */
export const getBalance =
  ({ db }: InvoiceResources) =>
  async (userId: string): Promise<BillingBalance> => {
    const user = await invoiceQuery(db.em())
      .selectFrom('users')
      .select(['credit_balance', 'plan'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
    return { balance: user.credit_balance, plan: user.plan };
  };
