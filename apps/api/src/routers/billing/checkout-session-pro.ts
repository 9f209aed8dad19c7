import { HostedPage, SubscriptionCheckoutInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { PAYING_ROUTE_ERRORS, SUBSCRIBING_ERRORS } from './error-responses.ts';

export const checkoutSessionPro = userProcedure
  .meta({
    errors: { ...PAYING_ROUTE_ERRORS, ...SUBSCRIBING_ERRORS },
    openapi: {
      method: 'POST',
      path: '/api/billing/checkout-session-pro',
      summary: 'Start a BYOK Pro plan subscription: a hosted checkout page',
      description:
        'As POST /api/billing/checkout-session, for the BYOK Pro plan (monthly only). The plan changes when ' +
        'the processor confirms the payment.',
    },
  })
  .input(SubscriptionCheckoutInput)
  .output(HostedPage)
  .mutation(({ ctx }) => ctx.services.checkout.subscribe(ctx.caller.userId, 'byok_pro'));
