import type { RouteErrors } from '../../trpc/init.ts';

/** What a route that opens a page at the payment processor can fail with beyond its kind's errors. */
export const PAYING_ROUTE_ERRORS = {
  BILLING_NOT_CONFIGURED: 'The server has no payment processor key, or no price for what this route sells',
  SERVICE_UNAVAILABLE: 'The payment processor did not answer or refused the request; try again shortly',
} as const satisfies RouteErrors;
