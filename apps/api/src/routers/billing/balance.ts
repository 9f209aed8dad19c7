import { BillingBalance } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';

export const billingBalance = userProcedure
  .meta({
    errors: { USER_NOT_FOUND: 'The authenticated account no longer exists' },
    openapi: {
      method: 'GET',
      path: '/api/billing/balance',
      summary: 'Credit balance and plan, read fresh',
      description: 'Never cached: a purchase shows here as soon as the processor has confirmed it.',
    },
  })
  .input(z.void())
  .output(BillingBalance)
  .query(({ ctx }) => ctx.services.invoices.balance(ctx.caller.userId));
