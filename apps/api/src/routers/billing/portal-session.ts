import { HostedPage } from '@verdict/contracts';
import { z } from 'zod';
import { userProcedure } from '../../trpc/init.ts';
import { PAYING_ROUTE_ERRORS } from './error-responses.ts';

export const portalSession = userProcedure
  .meta({
    errors: {
      NO_PAYMENT_CUSTOMER: 'The account has bought nothing yet (checked before anything else)',
      BILLING_NOT_CONFIGURED: 'The server has no payment processor key',
      SERVICE_UNAVAILABLE: PAYING_ROUTE_ERRORS.SERVICE_UNAVAILABLE,
    },
    openapi: {
      method: 'POST',
      path: '/api/billing/portal-session',
      summary: "The payment processor's customer portal: a hosted page",
      description:
        'Where a customer changes or cancels a subscription and downloads receipts; only for an account ' +
        'with a prior purchase.',
    },
  })
  .input(z.void())
  .output(HostedPage)
  .mutation(({ ctx }) => ctx.services.checkout.portal(ctx.caller.userId));
