import { HostedPage, ProCheckoutInput } from '@verdict/contracts';
import { userProcedure } from '../../trpc/init.ts';
import { FOR_WORKSPACE_ERRORS, PAYING_ROUTE_ERRORS, SUBSCRIBING_ERRORS } from './error-responses.ts';

export const checkoutSessionPro = userProcedure
  .meta({
    errors: { ...PAYING_ROUTE_ERRORS, ...SUBSCRIBING_ERRORS, ...FOR_WORKSPACE_ERRORS },
    openapi: {
      method: 'POST',
      path: '/api/billing/checkout-session-pro',
      summary: 'Start a BYOK Pro plan subscription: a hosted checkout page',
      description:
        'As POST /api/billing/checkout-session, for the BYOK Pro plan (monthly only). The plan changes when ' +
        'the processor confirms the payment. With workspaceId (a workspace the caller owns), the ' +
        "subscription's invoices are that workspace's too: its admins see them.",
    },
  })
  .input(ProCheckoutInput)
  .output(HostedPage)
  .mutation(({ ctx, input }) =>
    ctx.services.checkout.subscribe(ctx.caller.userId, 'byok_pro', input.workspaceId ?? null),
  );
