import { CreditCheckoutInput, HostedPage } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { FOR_WORKSPACE_ERRORS, PAYING_ROUTE_ERRORS } from './error-responses.ts';

export const creditCheckout = userProcedure
  .meta({
    errors: { ...PAYING_ROUTE_ERRORS, ...FOR_WORKSPACE_ERRORS },
    openapi: {
      method: 'POST',
      path: '/api/billing/credit-checkout',
      summary: 'Buy a credit pack: a hosted checkout page',
      description:
        'credits_100, credits_500 or credits_2000; one-time, and credits never expire. The credits are added ' +
        'once the processor confirms the payment (its webhook), so the balance may lag by seconds. With ' +
        "workspaceId (a workspace the caller owns), the purchase's invoice is that workspace's too: its " +
        'admins see it. The credits are the caller’s either way.',
    },
  })
  .input(CreditCheckoutInput)
  .output(HostedPage)
  .mutation(({ ctx, input }) =>
    ctx.services.checkout.buyCredits(ctx.caller.userId, input.pack, input.workspaceId ?? null),
  );
