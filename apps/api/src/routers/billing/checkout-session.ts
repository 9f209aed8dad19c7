import { HostedPage, SubscriptionCheckoutInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { PAYING_ROUTE_ERRORS, SUBSCRIBING_ERRORS } from './error-responses.ts';

export const checkoutSession = userProcedure
  .meta({
    errors: { ...PAYING_ROUTE_ERRORS, ...SUBSCRIBING_ERRORS },
    openapi: {
      method: 'POST',
      path: '/api/billing/checkout-session',
      summary: 'Start a BYOK plan subscription: a hosted checkout page',
      description:
        'Answers the url of a hosted checkout page to redirect to (200: the page lives at the payment ' +
        'processor, not here). The payment customer is made when the account opens its first checkout (the ' +
        'billing portal opens once a purchase has completed). The plan changes when ' +
        'the processor confirms the payment (its webhook), so GET /api/billing/balance may lag by seconds. ' +
        'One subscription per account: while one is active, plan changes and cancellation go through the ' +
        'billing portal (409 CONFLICT here).',
    },
  })
  .input(SubscriptionCheckoutInput)
  .output(HostedPage)
  .mutation(({ ctx }) => ctx.services.checkout.subscribe(ctx.caller.userId, 'byok'));
